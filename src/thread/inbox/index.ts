/** The inbox room's door: what the rest of the runtime may use of it. */
export type { AnswerDesk } from './answers.js';
export { answerFromChild, answerWait, messageFromChild, storeSecretAnswer } from './answers.js';
export { acceptMessage } from './inbox.js';
