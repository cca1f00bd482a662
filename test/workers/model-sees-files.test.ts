/**
 * What the model is sent of the files on a user's message (MSG-10..MSG-14), in workerd and through
 * the HTTP API: a message posted with image, PDF and text parts reaches the OpenAI-compatible server,
 * the Gemini server, a Messages API server and the Workers AI stub binding, each in its own wire
 * form, read back from what the server or binding received; a text-only model gets notes, never the
 * bytes; a file of a user's message is handed to a child thread with the same bytes.
 */
import { env } from 'cloudflare:workers';
import type { AttachmentRef, Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { stub } from './workers-ai-app.js';

/** A whole 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = btoa('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const CSV = 'name,score\nada,3\n';

/** Posts a message of `text` (holding a nonce) and an image, a PDF and a CSV file, and waits for the turn. */
async function postWithFiles(agent: string, text: string): Promise<AttachmentRef[]> {
  const id = await createThread({ agent });
  const posted = await api(`/api/threads/${id}/messages`, {
    method: 'POST',
    json: {
      content: [
        { type: 'text', text },
        { type: 'image', data: PNG, mime_type: 'image/png', name: 'shot.png' },
        { type: 'file', data: PDF, mime_type: 'application/pdf', name: 'report.pdf' },
        { type: 'file', data: btoa(CSV), mime_type: 'text/csv', name: 'scores.csv' },
      ],
    },
  });
  expect(posted.status).toBe(202);
  const log = await settled(id);
  const user = log.find((message) => message.role === 'user') as Message;
  const files = (user.attachments ?? []) as AttachmentRef[];
  expect(files.map((file) => file.mimeType)).toEqual(['image/png', 'application/pdf', 'text/csv']);
  return files;
}

const label = (ref: AttachmentRef) => `[file attached: ${ref.path} (${ref.mimeType}, ${ref.size} bytes)]`;
const note = (ref: AttachmentRef) =>
  `[file attached: ${ref.path} (${ref.mimeType}, ${ref.size} bytes) — read it with a tool]`;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The CSV's text as sent: its label, then the file marked as outside text. */
const csvText = (ref: AttachmentRef) =>
  expect.stringMatching(
    new RegExp(
      `^${escaped(label(ref))}\\n\\[The file ${escaped(ref.path)} below came from outside this thread\\. .*\\]\\n` +
        `<<<untrusted ([0-9a-f]{24})>>>\\n${escaped(CSV)}\\n<<<end untrusted \\1>>>$`,
    ),
  );

async function received<T>(route: string, marker: string): Promise<T[]> {
  return (await (await fetch(`${env.SERVICES_URL}/${route}?containing=${marker}`)).json()) as T[];
}

type ChatBody = { messages: { role: string; content: unknown }[] };

describe("a user's files as each provider receives them", () => {
  it('MSG-10, MSG-11, MSG-12: an OpenAI-compatible vision model gets image_url and file parts and the text inline', async () => {
    const nonce = `mf-${crypto.randomUUID()}`;
    const [image, pdf, csv] = (await postWithFiles('mf_openai', `Look ${nonce}`)) as AttachmentRef[];

    const [body] = await received<ChatBody>('model-requests', nonce);
    expect(body?.messages.find((message) => message.role === 'user')?.content).toEqual([
      { type: 'text', text: `Look ${nonce}` },
      { type: 'text', text: label(image as AttachmentRef) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'text', text: label(pdf as AttachmentRef) },
      { type: 'file', file: { filename: pdf?.name, file_data: `data:application/pdf;base64,${PDF}` } },
      { type: 'text', text: csvText(csv as AttachmentRef) },
    ]);
  });

  it('MSG-10: a text-only model gets notes naming the image and the PDF, never their bytes', async () => {
    const nonce = `mf-${crypto.randomUUID()}`;
    const [image, pdf, csv] = (await postWithFiles('mf_openai_text', `Look ${nonce}`)) as AttachmentRef[];

    const [body] = await received<ChatBody>('model-requests', nonce);
    expect(body?.messages.find((message) => message.role === 'user')?.content).toEqual([
      { type: 'text', text: `Look ${nonce}` },
      { type: 'text', text: note(image as AttachmentRef) },
      { type: 'text', text: note(pdf as AttachmentRef) },
      { type: 'text', text: csvText(csv as AttachmentRef) },
    ]);
    expect(JSON.stringify(body)).not.toContain(PNG.slice(0, 40));
    expect(JSON.stringify(body)).not.toContain(PDF.slice(0, 20));
  });

  it('MSG-10, MSG-11: Gemini gets the image and the PDF as inlineData parts', async () => {
    const nonce = `mf-${crypto.randomUUID()}`;
    const [image, pdf, csv] = (await postWithFiles('mf_gemini', `Look ${nonce}`)) as AttachmentRef[];

    const [request] = await received<{ body: { contents: unknown[] } }>('google-requests', nonce);
    expect(request?.body.contents[0]).toEqual({
      role: 'user',
      parts: [
        { text: `Look ${nonce}` },
        { text: label(image as AttachmentRef) },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { text: label(pdf as AttachmentRef) },
        { inlineData: { mimeType: 'application/pdf', data: PDF } },
        { text: csvText(csv as AttachmentRef) },
      ],
    });
  });

  it('MSG-10, MSG-11: Anthropic gets an image block and a document block, both base64, in the user turn', async () => {
    const nonce = `mf-${crypto.randomUUID()}`;
    const [image, pdf, csv] = (await postWithFiles('mf_claude', `Look ${nonce}`)) as AttachmentRef[];

    const [body] = await received<{ messages: { role: string; content: unknown }[] }>('anthropic-requests', nonce);
    expect(body?.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: `Look ${nonce}` },
        { type: 'text', text: label(image as AttachmentRef) },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'text', text: label(pdf as AttachmentRef) },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
        { type: 'text', text: csvText(csv as AttachmentRef) },
      ],
    });
  });

  it('MSG-10, MSG-11: a Workers AI vision model gets the image as a data URL and a note for the PDF', async () => {
    const nonce = `mf-${crypto.randomUUID()}`;
    const [image, pdf, csv] = (await postWithFiles('mf_workers_ai', `Look ${nonce}`)) as AttachmentRef[];

    const runs = stub.calls.filter((call) => JSON.stringify(call.inputs.messages).includes(nonce));
    expect(runs).toHaveLength(1);
    const sent = runs[0]?.inputs.messages as { role: string; content: unknown }[];
    expect(sent.find((message) => message.role === 'user')?.content).toEqual([
      { type: 'text', text: `Look ${nonce}` },
      { type: 'text', text: label(image as AttachmentRef) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'text', text: note(pdf as AttachmentRef) },
      { type: 'text', text: csvText(csv as AttachmentRef) },
    ]);
    expect(JSON.stringify(sent)).not.toContain(PDF.slice(0, 20));
  });
});

describe("a user's file handed to a child thread", () => {
  it('MSG-14: the image of a user message, passed to a child, arrives under /attachments/from-parent/ with the same bytes', async () => {
    const id = await createThread({ agent: 'general' });
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: [
          { type: 'text', text: 'Here is a picture' },
          { type: 'image', data: PNG, mime_type: 'image/png', name: 'shot.png' },
        ],
      },
    });
    const first = await settled(id);
    const [ref] = (first.find((message) => message.role === 'user')?.attachments ?? []) as AttachmentRef[];
    expect(ref?.path).toMatch(/^\/attachments\/.+shot\.png$/);

    const childScript = directive([{ text: 'child has it' }]);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          {
            toolCalls: [{ name: 'task', arguments: { description: 'look', prompt: childScript, files: [ref?.path] } }],
          },
          { text: 'parent done' },
        ]),
      },
    });
    const log = await settled(id);
    expect(log.at(-1)?.content).toBe('parent done');
    const details = await until(
      async () => (await (await api(`/api/threads/${id}`)).json()) as { children: { id: string }[] },
      (view) => view.children.length === 1,
    );
    const child = details.children[0]?.id ?? '';
    await settled(child);
    const name = ref?.path.split('/').at(-1) ?? '';
    const copied = await api(`/api/threads/${child}/files/attachments/from-parent/${name}`);
    expect(copied.status).toBe(200);
    const bytes = new Uint8Array(await copied.arrayBuffer());
    expect(btoa(String.fromCharCode(...bytes))).toBe(PNG);
    expect((await messages(child)).some((message) => message.role === 'user')).toBe(true);
    // The parent keeps its own copy.
    const kept = new Uint8Array(await (await api(`/api/threads/${id}/files${ref?.path}`)).arrayBuffer());
    expect(btoa(String.fromCharCode(...kept))).toBe(PNG);
  });
});
