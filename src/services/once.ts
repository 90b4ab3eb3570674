/** Memoises an async factory so concurrent first calls share one instance; a failure is forgotten, so the next call tries again. */
export function once<T>(factory: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= factory().catch((error) => {
      made = undefined;
      throw error;
    }));
}
