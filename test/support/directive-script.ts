/**
 * A script a test writes into its own user message: `{"script":[...replies]}`. The scripted model
 * plays reply N for the Nth model step after that message, so every test drives its own thread
 * without shared state. `{"fail":"why"}` makes the model call fail; any other message is echoed.
 */
import type { ModelMessage, ScriptedReply, ScriptedRequest } from '@standardagents/spec';

export function directive(replies: ScriptedReply[]): string {
  return JSON.stringify({ script: replies });
}

export function directiveScript(request: ScriptedRequest): ScriptedReply {
  const messages = request.messages;
  let steps = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ModelMessage;
    if (message.role === 'assistant') steps++;
    if (message.role !== 'user') continue;
    const content = typeof message.content === 'string' ? message.content : '';
    if (content.startsWith('{"fail"')) throw new Error((JSON.parse(content) as { fail: string }).fail);
    if (!content.startsWith('{"script"')) return { text: `echo: ${content}` };
    const replies = (JSON.parse(content) as { script: ScriptedReply[] }).script;
    return replies[steps] ?? { text: 'script finished' };
  }
  return { text: 'no user message' };
}
