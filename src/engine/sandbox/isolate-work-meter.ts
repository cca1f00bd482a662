/**
 * The work meter of a sandboxed run, as JavaScript text for the isolate's main module (CODE-1). The
 * guard counts loop iterations and calls and reads the clock every 1024 of them, but one call of a
 * built-in can do work in proportion to its input without allocating anything the memory ledger
 * sees: `Float64Array.prototype.sort` on a million numbers, `includes` over a long array,
 * `localeCompare` of long strings. A loop of such calls makes few ticks, so the clock would be read
 * only every few minutes, and locally the whole workerd process waits on the program meanwhile. The
 * built-ins listed here are wrapped to report the size of their input (elements, characters, bytes)
 * as work before they run; the run reads the clock once work adds up (main.js `work()`), so its time
 * limits hold within a fraction of a second of work even in a loop of built-ins.
 *
 * What is metered: the array and typed-array methods that scan, sort, move or visit every element;
 * the string methods that search, compare or convert their whole text; `TextDecoder.decode`; base64
 * and URI coding; Map and Set `forEach`. Not metered: what takes time in proportion to its result
 * rather than its input (`slice`, `charAt`, `startsWith`), which ticks bound. What allocates is
 * charged by the memory ledger, which reports its bytes as work too (main.js `charge()`).
 *
 * An array sorted without a comparator is given one that orders as the default does and reports
 * every comparison as work: the default converts both elements to strings at each comparison, so a
 * single sort of a few million numbers would otherwise hold the process for half a minute.
 *
 * The text defines `installWorkMeter(work)`; it relies on the primordials main.js captures (`apply`,
 * `defineProperty`, `getOwnPropertyDescriptor`, `toText`) and keeps its own originals in closures no
 * program can reach. Captured at load, before any program code runs, like everything it reads.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw, so a regex or escape added later reaches main.js as written.
export const WORK_METER_SOURCE = String.raw`
// Replaces target[key] by a function that reports units(this, args) as work, then calls the
// original, with adjust(args) instead of args when given. A rest parameter keeps the number of
// arguments the original sees (reduce tells "no initial value" from an undefined one).
function meterMethod(work, target, key, units, adjust) {
  const descriptor = getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined || typeof descriptor.value !== 'function') return;
  const original = descriptor.value;
  const metered = {
    [key](...args) {
      work(units(this, args));
      return apply(original, this, adjust === undefined ? args : adjust(args));
    },
  }[key];
  defineProperty(target, key, {
    __proto__: null,
    value: metered,
    writable: descriptor.writable,
    enumerable: descriptor.enumerable,
    configurable: descriptor.configurable,
  });
}

// The units of a receiver or an argument: its length; a value without one counts nothing.
function lengthUnits(value) {
  if (value === null || value === undefined) return 0;
  const length = typeof value === 'string' ? value.length : +value.length;
  return length > 0 ? length : 0;
}

function installWorkMeter(work) {
  installArrayMeters(work);
  installTextMeters(work);
}

function installArrayMeters(work) {
  const { ceil, log2 } = Math;
  const OriginalTypeError = TypeError;
  // Sorting: about n log n comparisons.
  const sorting = (self) => {
    const n = lengthUnits(self);
    return n > 1 ? n * ceil(log2(n)) : n;
  };
  // Without a comparator an array sorts by comparing its elements as strings, converted at every
  // comparison: one call on a few million numbers would run for tens of seconds without a tick. This
  // comparator gives the same order and reports each comparison as work, so the time limits hold in
  // the middle of such a sort.
  const byText = (x, y) => {
    work(1);
    if (typeof x === 'symbol' || typeof y === 'symbol') {
      throw new OriginalTypeError('Cannot convert a Symbol value to a string');
    }
    const a = toText(x);
    const b = toText(y);
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const withComparator = (args) => (args[0] === undefined ? [byText] : args);
  const arrayMethods = Array.prototype;
  const typedMethods = Object.getPrototypeOf(Uint8Array.prototype);
  for (const key of [
    'sort', 'reverse', 'copyWithin', 'indexOf', 'lastIndexOf', 'includes', 'find', 'findIndex',
    'findLast', 'findLastIndex', 'some', 'every', 'forEach', 'reduce', 'reduceRight', 'fill', 'join',
    'map', 'filter', 'slice', 'toSorted', 'toReversed', 'with', 'toString', 'toLocaleString',
  ]) {
    const sorts = key === 'sort' || key === 'toSorted';
    meterMethod(work, arrayMethods, key, sorts ? sorting : lengthUnits, sorts ? withComparator : undefined);
    // A typed array without a comparator sorts its numbers natively, in a second or so at most.
    meterMethod(work, typedMethods, key, sorts ? sorting : lengthUnits);
  }
  // Moving every element after the place changed.
  for (const key of ['splice', 'unshift', 'shift']) meterMethod(work, arrayMethods, key, lengthUnits);
  // A typed array's set copies its source.
  meterMethod(work, typedMethods, 'set', (_self, args) => lengthUnits(args[0]));
  const size = (self) => {
    try {
      return self.size > 0 ? self.size : 0;
    } catch {
      return 0;
    }
  };
  meterMethod(work, Map.prototype, 'forEach', size);
  meterMethod(work, Set.prototype, 'forEach', size);
}

function installTextMeters(work) {
  const stringMethods = String.prototype;
  for (const key of [
    'indexOf', 'lastIndexOf', 'includes', 'search', 'match', 'matchAll', 'replace', 'replaceAll',
    'split', 'normalize', 'toUpperCase', 'toLowerCase', 'toLocaleUpperCase', 'toLocaleLowerCase',
    'trim', 'trimStart', 'trimEnd', 'isWellFormed', 'toWellFormed',
  ]) {
    meterMethod(work, stringMethods, key, lengthUnits);
  }
  meterMethod(work, stringMethods, 'localeCompare', (self, args) =>
    lengthUnits(self) + (typeof args[0] === 'string' ? args[0].length : 0),
  );
  if (typeof TextDecoder === 'function') {
    meterMethod(work, TextDecoder.prototype, 'decode', (_self, args) => {
      const input = args[0];
      return input !== null && typeof input === 'object' && typeof input.byteLength === 'number' ? input.byteLength : 0;
    });
  }
  for (const key of ['atob', 'btoa', 'encodeURI', 'encodeURIComponent', 'decodeURI', 'decodeURIComponent', 'escape', 'unescape']) {
    meterMethod(work, globalThis, key, (_self, args) => lengthUnits(args[0]));
  }
}
`;
