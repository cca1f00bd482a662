/**
 * How every validation failure in the runtime names its problems: `field.path: message`, joined by
 * `; `, with `(root)` for the value itself. One format, so models and clients learn one shape.
 */
import type { z } from 'zod';

export interface IssueLine {
  path: string;
  message: string;
}

export function issueLines(error: z.ZodError): IssueLine[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}

export function describeIssues(error: z.ZodError): string {
  return issueLines(error)
    .map((line) => `${line.path}: ${line.message}`)
    .join('; ');
}
