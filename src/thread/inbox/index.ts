/**
 * What reaches a thread from outside (KIND-3 to KIND-5, VAR-5, SUB-7): user messages, answers to
 * waiting calls, credentials for store_secret, children's answers, and the caps on waits for them.
 */
export { type AnswerAuthor, auditApproval, authorOf } from './answer-author.js';
export type { AnswerDesk } from './answers.js';
export {
  answerFromChild,
  answerMcpAuthorization,
  answerWait,
  messageFromChild,
  storeSecretAnswer,
} from './answers.js';
export { acceptMessage } from './inbox.js';
export { armChildWaitAlarm, expireChildWaits } from './wait-deadlines.js';
