import type { VariableDefinition } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  inheritVariableValues,
  mergeVariableDefinitions,
  missingVariables,
  resolveVariableValues,
  variablesFromTenvs,
} from '../../../../src/spec/variables.js';

const text = (name: string, extra: Partial<VariableDefinition> = {}): VariableDefinition => ({
  name,
  type: 'text',
  required: false,
  description: '',
  ...extra,
});

describe('variable values', () => {
  it('VAR-1: a tenvs .default() becomes a default and makes the variable optional', () => {
    expect(variablesFromTenvs(z.object({ units: z.string().default('metric').describe('Units') }))).toEqual([
      { name: 'units', type: 'text', required: false, description: 'Units', default: 'metric' },
    ]);
  });

  it('VAR-2: a later level default wins, and a thread value wins over every default', () => {
    const merged = mergeVariableDefinitions(
      [text('A', { default: 'tool' }), text('B', { default: 'tool' })],
      [text('A', { default: 'prompt' })],
      [text('A', { default: 'agent' })],
    );
    expect(resolveVariableValues(merged, {})).toEqual({ A: 'agent', B: 'tool' });
    expect(resolveVariableValues(merged, { A: 'thread' })).toEqual({ A: 'thread', B: 'tool' });
  });

  it('VAR-2: a required variable with a default is never missing', () => {
    const declared = [text('A', { required: true, default: 'x' }), text('B', { required: true })];
    expect(missingVariables(declared, {})).toEqual(['B']);
  });

  it('VAR-4: a name scoped at any level is not inherited; everything else is', () => {
    const childDeclared = mergeVariableDefinitions([text('TOKEN', { scoped: true })], [text('TOKEN')]);
    expect(inheritVariableValues({ TOKEN: 'parent', REGION: 'eu' }, childDeclared)).toEqual({ REGION: 'eu' });
  });
});
