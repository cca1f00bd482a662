/**
 * The compilers a program is made ready with: sucrase strips its types, acorn parses it for
 * instrumentation. They are gathered in this one module, holding nothing else, so that
 * compilers-loader.ts can import it when the first program runs rather than when the Worker starts
 * (most Workers start and answer many requests without running a program).
 */
export { parse } from 'acorn';
export { fullAncestor } from 'acorn-walk';
export { transform } from 'sucrase';
