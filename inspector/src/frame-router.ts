/**
 * Where each live frame of a thread goes on its screen: the log shows what happened, the waits panel
 * what is asked, the header the status, the usage panel the totals. A frame that changes what the
 * side panels show (a result, a wait, a status) asks for a refresh of the thread's state; `withFiles`
 * when files may have changed too. A status other than running means a turn ended (or paused for an
 * answer) and stored its spans: the timeline reads them. A rewind put the files back as they were.
 */
import { showCallActivity } from './call-activity.js';
import type { DetailsPanel } from './details-panel.js';
import type { LogView } from './log.js';
import type { ThreadHeader } from './thread-header.js';
import type { TimelinePanel } from './timeline.js';
import type { Frame } from './types.js';
import type { UsagePanel } from './usage.js';
import type { WaitsPanel } from './waits.js';

/** The parts of the thread screen a frame can change. */
export interface ThreadParts {
  header: ThreadHeader;
  log: LogView;
  waits: WaitsPanel;
  usage: UsagePanel;
  details: DetailsPanel;
  timeline: TimelinePanel;
}

export function routeFrame(frame: Frame, parts: ThreadParts, refreshSoon: (withFiles: boolean) => void): void {
  const { log, waits } = parts;
  parts.details.frameSeen(frame.seq);
  showCallActivity(frame, log.element);
  switch (frame.type) {
    case 'message':
      log.message(frame.message);
      break;
    case 'message_delta':
      log.delta(frame.message_id, frame.delta);
      break;
    case 'message_abandoned':
      log.abandon(frame.message_id);
      break;
    case 'message_updated':
      log.updated(frame.message);
      break;
    case 'message_deleted':
      log.removed(frame.message_ids);
      break;
    case 'rewound':
      // The messages after the point went with their own message_deleted; the files were put back.
      refreshSoon(true);
      break;
    case 'tool_started':
      log.toolStarted(frame.tool_call_id, frame.name, frame.arguments);
      break;
    case 'tool_progress':
      log.toolProgress(frame.tool_call_id, frame.name, frame.event);
      break;
    case 'tool_result':
      log.toolResult(frame.tool_call_id, frame.name, frame.status, frame.envelope);
      refreshSoon(true);
      break;
    case 'waiting': {
      const { tool_call_id, name, kind, payload } = frame;
      log.waiting(tool_call_id, name, kind, payload);
      waits.add({ tool_call_id, name, kind, payload });
      refreshSoon(false);
      break;
    }
    case 'answered':
      log.answered(frame.tool_call_id, frame.kind, frame.answered_by, frame.approved);
      waits.remove(frame.tool_call_id);
      refreshSoon(false);
      break;
    case 'status':
      parts.header.setStatus(frame.status, frame.reason);
      refreshSoon(frame.status !== 'running');
      if (frame.status !== 'running') void parts.timeline.refresh();
      break;
    case 'usage':
      parts.usage.show({ thread: frame.thread, turn: frame.turn });
      break;
    case 'error':
      log.error(frame.code, frame.message);
      break;
    case 'event':
      log.event(frame.event, frame.data);
      break;
  }
}
