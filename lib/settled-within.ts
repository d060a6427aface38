/**
 * Waits for `p` to settle (resolve or reject) for at most `ms` milliseconds: true when it did,
 * false when the time ran out first (`p` goes on; its outcome is not observed here). The timer does
 * not keep the process alive. Used to bound shutdown steps (server/jobs/pg-store.ts `stopWorker`).
 */
export async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
