/**
 * What a view shows of tool calls between the frames that settle them: a call's arguments while the
 * model streams them (`tool_call_delta`, the whole text so far) and how long a running call has
 * been running (`tool_running`, sent every 30 s). Both are drafts: the stored message holding the
 * call replaces its arguments, and its result ends its running time.
 */
import type { Frame } from './frames.js';

/** A call whose arguments are still streaming. */
export interface StreamingCall {
  name: string;
  /** The arguments so far, as the model has written them: not yet valid JSON, as a rule. */
  arguments_text: string;
}

/** A call running for a while: the last `tool_running` frame's figures. */
export interface RunningCall {
  name: string;
  elapsed_ms: number;
  timeout_ms: number;
}

export interface CallActivity {
  streamingCalls: Record<string, StreamingCall>;
  runningCalls: Record<string, RunningCall>;
}

export const noCallActivity: CallActivity = { streamingCalls: {}, runningCalls: {} };

function without<V>(record: Record<string, V>, keys: readonly string[]): Record<string, V> {
  if (!keys.some((key) => key in record)) return record;
  const rest = { ...record };
  for (const key of keys) delete rest[key];
  return rest;
}

/** The activity after one frame; the same object when the frame changes none of it. */
export function nextCallActivity(activity: CallActivity, frame: Frame): CallActivity {
  switch (frame.type) {
    case 'tool_call_delta':
      return {
        ...activity,
        streamingCalls: {
          ...activity.streamingCalls,
          [frame.tool_call_id]: { name: frame.name, arguments_text: frame.arguments_text },
        },
      };
    case 'tool_running':
      return {
        ...activity,
        runningCalls: {
          ...activity.runningCalls,
          [frame.tool_call_id]: { name: frame.name, elapsed_ms: frame.elapsed_ms, timeout_ms: frame.timeout_ms },
        },
      };
    case 'message': {
      // The step's stored message holds its calls whole: their drafts are done, as are any a
      // failed attempt left. A tool message ends its call's running time.
      const { message } = frame;
      if (message.role === 'assistant') return { ...activity, streamingCalls: {} };
      if (message.role === 'tool' && message.tool_call_id) {
        const runningCalls = without(activity.runningCalls, [message.tool_call_id]);
        return runningCalls === activity.runningCalls ? activity : { ...activity, runningCalls };
      }
      return activity;
    }
    case 'tool_result': {
      const runningCalls = without(activity.runningCalls, [frame.tool_call_id]);
      return runningCalls === activity.runningCalls ? activity : { ...activity, runningCalls };
    }
    case 'status':
      return frame.status === 'running' ? activity : noCallActivity;
    default:
      return activity;
  }
}
