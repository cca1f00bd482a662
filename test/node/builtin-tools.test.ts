import { describe, expect, it } from 'vitest';
import { lintTools } from '../../src/spec/tool-lint.js';
import { builtinTools } from '../../src/tools/index.js';

describe('built-in tools', () => {
  it('DEF-7: every built-in tool passes the tool-design lint (findings are failures for built-ins)', () => {
    expect(Object.keys(builtinTools).length).toBeGreaterThan(0);
    expect(lintTools(builtinTools)).toEqual([]);
  });
});
