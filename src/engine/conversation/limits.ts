/** The global ceiling on model steps in one turn, whatever the side allows (EXE-7). */
export const MAX_STEPS_CEILING = 100;
