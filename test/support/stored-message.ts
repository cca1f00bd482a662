/** A message as a thread's store holds it: every field present, the ones not given empty. */
import type { Message } from '@standardagents/spec';

export function storedMessage(seq: number, fields: Partial<Message> & Pick<Message, 'role'>): Message {
  return {
    id: `m${seq}`,
    seq,
    content: null,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    created_at: seq,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: null,
    tool_status: null,
    attachments: null,
    envelope: null,
    ...fields,
  };
}
