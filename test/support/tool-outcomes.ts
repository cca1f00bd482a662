/**
 * Helpers of the test applications whose tools report what each act came to: a refused act's
 * message (or `done`), and a JSON result.
 */

/** What a refused act says, or `done` when it was not refused. */
export async function refusal(act: () => unknown): Promise<string> {
  try {
    await act();
    return 'done';
  } catch (error) {
    return (error as Error).message;
  }
}

/** A successful tool result carrying `value` as JSON. */
export const jsonResult = (value: unknown) => ({ status: 'success' as const, result: JSON.stringify(value) });
