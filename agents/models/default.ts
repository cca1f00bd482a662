import { defineModel } from '@standardagents/spec';

// The model id comes from the MODEL variable; without OPENAI_* variables an offline demo answers.
export default defineModel({ name: 'default', provider: 'openai' });
