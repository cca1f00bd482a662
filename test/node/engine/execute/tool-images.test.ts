import { defineAgent, defineModel, definePrompt, defineTool } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { ALLOW_EVERYTHING, createHarness } from '../../../support/memory-store.js';

const PIXEL = btoa('not really a png, but bytes all the same');

const tools = {
  draw: defineTool({
    description: 'Draw a picture',
    execute: async () => ({
      status: 'success',
      result: 'drawn',
      attachments: [{ name: 'pic.png', mimeType: 'image/png', data: PIXEL, width: 1, height: 1 }],
    }),
  }),
};

function harness(vision: boolean) {
  return createHarness({
    definitions: {
      tools,
      models: [
        defineModel({
          name: 'eyes',
          provider: 'scripted',
          vision,
          script: [{ toolCalls: [{ name: 'draw' }] }, { text: 'I see it' }],
        }),
      ],
      prompts: [definePrompt({ name: 'main', prompt: 'Look.', model: 'eyes', tools: ['draw'] })],
      agents: [defineAgent({ name: 'viewer', sideA: { prompt: 'main' } })],
      permissions: ALLOW_EVERYTHING,
    },
    agent: 'viewer',
  });
}

describe('images from tools', () => {
  it('EXE-9: a multimodal model receives a tool image as an image part right after the tool results', async () => {
    const h = harness(true);
    await h.send('draw something');
    const second = h.requests[1]?.messages ?? [];
    const toolIndex = second.findIndex((message) => message.role === 'tool');
    const images = second[toolIndex + 1];
    expect(images?.role).toBe('user');
    const parts = Array.isArray(images?.content) ? images.content : [];
    expect(parts).toEqual([
      { type: 'text', text: expect.stringMatching(/^Image \/attachments\/.+pic\.png returned by tool draw:$/) },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
    ]);
  });

  it('EXE-9: a text-only model gets a note with the attachment path instead', async () => {
    const h = harness(false);
    await h.send('draw something');
    const second = h.requests[1]?.messages ?? [];
    expect(second.some((message) => Array.isArray(message.content))).toBe(false);
    const tool = second.find((message) => message.role === 'tool');
    expect(tool?.content).toMatch(/^drawn\n\[attachment \/attachments\/.+pic\.png \(image\/png, \d+ bytes\)\]$/);
  });
});
