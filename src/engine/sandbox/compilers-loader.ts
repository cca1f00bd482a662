/**
 * The program compilers (program-compilers.ts), loaded on first use: `runProgram` awaits
 * `loadProgramCompilers()` before it prepares a program, and the preparation (program-source.ts,
 * instrument.ts) then reaches them synchronously through `programCompilers()`.
 */
type ProgramCompilers = typeof import('./program-compilers.js');

let loaded: ProgramCompilers | null = null;

export async function loadProgramCompilers(): Promise<ProgramCompilers> {
  loaded ??= await import('./program-compilers.js');
  return loaded;
}

export function programCompilers(): ProgramCompilers {
  if (!loaded) throw new Error('the program compilers are not loaded: await loadProgramCompilers() first');
  return loaded;
}
