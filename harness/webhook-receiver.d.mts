/**
 * Types for webhook-receiver.mjs, the local webhook receiver of the tests. Kept free of Node types
 * so any tsconfig can use it.
 */

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** What the plan answered: a status, `drop` or `redirect:<url>`. */
  answer: string;
}

export function receivedBy(name: string): ReceivedWebhook[];

// biome-ignore lint/suspicious/noExplicitAny: Node's request and response types are left out on purpose.
export function handleWebhookRequest(req: any, res: any, url: URL): boolean;

export function startWebhookReceiver(): Promise<{
  url: string;
  received(name: string): ReceivedWebhook[];
  close(): Promise<void>;
}>;
