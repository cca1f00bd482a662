/** The API's shapes the page shows, as the client library types them. */
export type {
  AgentSummary,
  AttachmentRef,
  FolderEntry,
  Frame,
  Message,
  ThreadDetails,
  ThreadStatus,
  ThreadSummary,
  ToolEnvelope,
  UsageTotals,
} from '../../client/index.js';
