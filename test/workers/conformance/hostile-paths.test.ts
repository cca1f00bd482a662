/**
 * ATT-3, ATT-5: the hostile path corpus, through HTTP downloads and uploads and through a tool
 * calling `state.writeFile` / `state.readFile`. Every hostile path is refused with a precise error,
 * an absolute-looking path maps inside the thread's root, and nothing is written outside
 * `threads/<id>/`.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread } from '../../support/api.js';
import { invalidPaths, PATH_REASON } from '../../support/hostile-corpus.js';
import { r2Keys, runScript } from './support.js';

const AGENT = 'conf_lab';
const PROBE = 'conf_file_probe';

const REASON = PATH_REASON;

interface Probe {
  label: string;
  /** The path as the tool receives it. */
  path: string;
  /** The same path as it travels in a URL after `/files/`. */
  url: string;
  reason: RegExp;
}

/** The corpus (test/support/hostile-corpus.ts), with a marker in every name so an escaped write shows. */
function corpus(marker: string): Probe[] {
  return invalidPaths(`escape-${marker}.txt`).map((probe) => ({
    ...probe,
    url: probe.url ?? probe.path.split('/').map(encodeURIComponent).join('%2F'),
  }));
}

/** Paths as the server sees them once it decoded the URL, for the cases a URL can only carry encoded. */
function decodedUrlCorpus(marker: string): Probe[] {
  const file = `escape-${marker}.txt`;
  return [
    { label: '%2e%2e%2f (decoded to ../)', path: '', url: `%2e%2e%2f${file}`, reason: REASON.dots },
    { label: '%2E%2E%2F (decoded to ../)', path: '', url: `%2E%2E%2F${file}`, reason: REASON.dots },
    {
      label: '%252e%252e%252f (decoded to %2e%2e%2f)',
      path: '',
      url: `%252e%252e%252f${file}`,
      reason: REASON.encoded,
    },
    { label: '..%5c (decoded to ..\\)', path: '', url: `..%5c${file}`, reason: REASON.backslash },
    { label: '%5C alone', path: '', url: `a%5C${file}`, reason: REASON.backslash },
    { label: '%00 (decoded to NUL)', path: '', url: `${file}%00.png`, reason: REASON.nul },
  ];
}

function marker(): string {
  return crypto.randomUUID().slice(0, 8);
}

/** Every key of the bucket whose name carries the marker: an escaped write would show up here. */
async function keysWith(mark: string): Promise<string[]> {
  return (await r2Keys(env.FILES, '')).filter((key) => key.includes(mark));
}

interface ApiError {
  error: { code: string; message: string };
}

describe('ATT-3: hostile paths over HTTP', () => {
  it('ATT-3: every hostile path is refused on download and upload with 400 invalid_path naming the reason', async () => {
    const mark = marker();
    const id = await createThread({ agent: AGENT });
    const other = await createThread({ agent: AGENT });
    const secret = await api(`/api/threads/${other}/files/secret-${mark}.txt`, {
      method: 'PUT',
      body: 'other thread',
      headers: { 'content-length': '12' },
    });
    expect(secret.status).toBe(201);
    const probes: Probe[] = [
      ...corpus(mark),
      ...decodedUrlCorpus(mark),
      {
        label: 'the sibling thread through ../',
        path: '',
        url: `..%2F..%2F${other}%2Fsecret-${mark}.txt`,
        reason: REASON.dots,
      },
    ];
    for (const probe of probes) {
      const download = await api(`/api/threads/${id}/files/${probe.url}`);
      expect(download.status, `GET ${probe.label}`).toBe(400);
      const got = (await download.json()) as ApiError;
      expect(got.error.code, `GET ${probe.label}`).toBe('invalid_path');
      expect(got.error.message, `GET ${probe.label}`).toMatch(probe.reason);

      const upload = await api(`/api/threads/${id}/files/${probe.url}`, {
        method: 'PUT',
        body: 'escaped',
        headers: { 'content-length': '7' },
      });
      expect(upload.status, `PUT ${probe.label}`).toBe(400);
      const put = (await upload.json()) as ApiError;
      expect(put.error.code, `PUT ${probe.label}`).toBe('invalid_path');
      expect(put.error.message, `PUT ${probe.label}`).toMatch(probe.reason);
    }
    expect(await r2Keys(env.FILES, `threads/${id}/`)).toEqual([]);
    expect(await keysWith(mark)).toEqual([`threads/${other}/secret-${mark}.txt`]);
  });

  it('ATT-3: an absolute-looking path maps inside the thread root: a plain not-found, then stored under the thread', async () => {
    const id = await createThread({ agent: AGENT });
    for (const url of ['%2Fetc%2Fpasswd', '/etc/passwd']) {
      const missing = await api(`/api/threads/${id}/files/${url}`);
      expect(missing.status, url).toBe(404);
      expect(((await missing.json()) as ApiError).error.code, url).toBe('file_not_found');
    }
    const upload = await api(`/api/threads/${id}/files/%2Fetc%2Fpasswd`, {
      method: 'PUT',
      body: 'root:x:0:0',
      headers: { 'content-type': 'text/plain', 'content-length': '10' },
    });
    expect(upload.status).toBe(201);
    expect(await upload.json()).toMatchObject({ path: '/etc/passwd', name: 'passwd' });
    expect(await r2Keys(env.FILES, `threads/${id}/`)).toEqual([`threads/${id}/etc/passwd`]);
    expect(await (await api(`/api/threads/${id}/files//etc/passwd`)).text()).toBe('root:x:0:0');
  });
});

describe('ATT-3: hostile paths through state.writeFile and state.readFile', () => {
  function byCall(log: Message[]): Message[] {
    return log.filter((message) => message.role === 'tool');
  }

  it('ATT-3: every hostile path is refused by writeFile and readFile with an error naming the reason', async () => {
    const mark = marker();
    const probes = corpus(mark);
    const { id, tools, log } = await runScript(AGENT, [
      {
        toolCalls: probes.flatMap((probe) => [
          { name: PROBE, arguments: { op: 'write', path: probe.path } },
          { name: PROBE, arguments: { op: 'read', path: probe.path } },
        ]),
      },
      { text: 'refused' },
    ]);
    expect(tools).toHaveLength(probes.length * 2);
    for (const [index, probe] of probes.entries()) {
      for (const [offset, op] of ['write', 'read'].entries()) {
        const message = tools[index * 2 + offset];
        expect(message?.tool_status, `${op} ${probe.label}`).toBe('error');
        expect(message?.content, `${op} ${probe.label}`).toMatch(/^Error: /);
        expect(message?.content, `${op} ${probe.label}`).toMatch(probe.reason);
      }
    }
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'refused' });
    expect(await r2Keys(env.FILES, `threads/${id}/`)).toEqual([]);
    expect(await keysWith(mark)).toEqual([]);
  });

  it('ATT-3: an absolute-looking path written by a tool lands under the thread prefix; before that it is a plain not-found', async () => {
    const { id, log } = await runScript(AGENT, [
      {
        toolCalls: [
          { name: PROBE, arguments: { op: 'read', path: '/etc/passwd' } },
          { name: PROBE, arguments: { op: 'write', path: '/etc/passwd', text: 'inside' } },
          { name: PROBE, arguments: { op: 'read', path: 'etc/passwd' } },
        ],
      },
      { text: 'done' },
    ]);
    const [before, written, after] = byCall(log);
    expect(before).toMatchObject({ tool_status: 'success' });
    expect(JSON.parse(before?.content ?? '')).toEqual({ found: false });
    expect(written).toMatchObject({ tool_status: 'success' });
    expect(JSON.parse(written?.content ?? '')).toEqual({ written: '/etc/passwd' });
    expect(JSON.parse(after?.content ?? '')).toEqual({ found: true, text: 'inside' });
    expect(await r2Keys(env.FILES, `threads/${id}/`)).toEqual([`threads/${id}/etc/passwd`]);
    const download = await api(`/api/threads/${id}/files/etc/passwd`);
    expect(new TextDecoder().decode(await download.arrayBuffer())).toBe('inside');
  });
});

describe('ATT-3: hostile paths in tool attachments', () => {
  it('ATT-3: a new attachment named with traversal is confined under /attachments/ or refused, never written outside', async () => {
    const mark = marker();
    const { id, tools } = await runScript(AGENT, [
      {
        toolCalls: [
          {
            name: 'conf_return_result',
            arguments: {
              status: 'success',
              result: 'made',
              attachments: [{ name: `../../escape-${mark}.txt`, mimeType: 'text/plain', data: btoa('escaped') }],
            },
          },
        ],
      },
      { text: 'done' },
    ]);
    const [result] = tools;
    const keys = await keysWith(mark);
    if (result?.tool_status === 'success') {
      const path = result.attachments?.[0]?.path ?? '';
      expect(path).toMatch(/^\/attachments\/[^/]+$/);
      expect(path).not.toContain('..');
      expect(keys).toEqual([`threads/${id}${path}`]);
    } else {
      expect(result?.content).toMatch(REASON.dots);
      expect(keys).toEqual([]);
    }
  });

  it('ATT-3: an AttachmentRef whose path escapes the thread root is refused, not passed through', async () => {
    const mark = marker();
    const other = await createThread({ agent: AGENT });
    const hostile = {
      id: `ref-${mark}`,
      type: 'file',
      path: `/../../${other}/secret.txt`,
      name: 'secret.txt',
      mimeType: 'text/plain',
      size: 12,
    };
    const { tools } = await runScript(AGENT, [
      { toolCalls: [{ name: 'conf_return_result', arguments: { status: 'success', attachments: [hostile] } }] },
      { text: 'done' },
    ]);
    const [result] = tools;
    expect(result?.attachments ?? []).not.toContainEqual(expect.objectContaining({ path: hostile.path }));
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toMatch(REASON.dots);
  });

  it('ATT-2: an AttachmentRef naming a file that does not exist is an error, not a success', async () => {
    const ghost = {
      id: 'ref-ghost',
      type: 'file',
      path: '/attachments/never-written.png',
      name: 'never-written.png',
      mimeType: 'image/png',
      size: 4,
    };
    const { tools } = await runScript(AGENT, [
      {
        toolCalls: [
          { name: 'conf_return_result', arguments: { status: 'success', result: 'made', attachments: [ghost] } },
        ],
      },
      { text: 'done' },
    ]);
    const [result] = tools;
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('the attachment /attachments/never-written.png is not a file of this thread');
    expect(result?.attachments ?? []).toEqual([]);
  });
});
