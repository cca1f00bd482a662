/**
 * What a prompt tool's call returns (SUB-1), shaped by its SubpromptConfig: the final text
 * (`includeTextResponse`), the calls with their results (`includeToolCalls`), failed calls even
 * without them (`includeErrors`), and the files its tools produced, valid in the caller since the
 * run shares the thread's filesystem. Calls the round limit refused (KIND-7) are reported as not
 * executed.
 */
import type { Message, SubpromptConfig, ToolResult } from '../../spec/index.js';
import { parsedArguments } from '../execute/index.js';
import { ROUND_LIMIT_MESSAGE } from '../step/index.js';

interface CallReport {
  name: string;
  arguments: unknown;
  status: 'success' | 'error';
  result?: string;
  error?: string;
}

function callReports(log: readonly Message[]): CallReport[] {
  const results = new Map(log.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m]));
  return log.flatMap((message) =>
    (message.tool_calls ?? []).map((call) => {
      const result = results.get(call.id);
      const status = result?.tool_status === 'success' ? 'success' : 'error';
      const refused = !result && message.metadata?.round_limit === true;
      const text = refused ? ROUND_LIMIT_MESSAGE : (result?.content ?? '');
      return {
        name: call.function.name,
        arguments: parsedArguments(call.function.arguments),
        status,
        ...(status === 'success' ? { result: text } : { error: text }),
      };
    }),
  );
}

export function subpromptResult(
  name: string,
  config: SubpromptConfig,
  log: readonly Message[],
  failure: string | null,
): ToolResult {
  const includeText = config.includeTextResponse ?? true;
  const includeCalls = config.includeToolCalls ?? false;
  const includeErrors = config.includeErrors ?? true;
  if (failure) {
    return {
      status: 'error',
      error: includeErrors ? `prompt "${name}" failed: ${failure}` : `prompt "${name}" failed`,
    };
  }
  const calls = callReports(log);
  const answer = [...log].reverse().find((m) => m.role === 'assistant')?.content ?? '';
  const files = log.filter((m) => m.role === 'tool').flatMap((m) => m.attachments ?? []);
  const shown = includeCalls
    ? calls.filter((call) => includeErrors || call.status === 'success')
    : calls.filter((call) => includeErrors && call.status === 'error');
  if (shown.length === 0) return { status: 'success', result: includeText ? answer : '', attachments: files };
  const report = { ...(includeText ? { response: answer } : {}), [includeCalls ? 'tool_calls' : 'errors']: shown };
  return { status: 'success', result: JSON.stringify(report), attachments: files };
}
