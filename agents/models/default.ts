import { defineModel } from '@standardagents/spec';

// OpenAI-compatible: OPENAI_API_KEY (and OPENAI_BASE_URL for another server); the id from MODEL.
export default defineModel({ name: 'default', provider: 'openai' });
