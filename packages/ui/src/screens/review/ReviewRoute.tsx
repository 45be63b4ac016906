import { lazy, Suspense } from 'react';

// The review screen (and markdown-it) load on the first visit, not with the app.
const ReviewScreen = lazy(async () => ({ default: (await import('../ReviewScreen.js')).ReviewScreen }));

/** `/reviews/:id`: the review screen, loaded on demand. */
export function ReviewRoute({ reviewId }: { reviewId: string }) {
  return (
    <Suspense
      fallback={
        <main id="main" className="page">
          <p role="status">Loading the review…</p>
        </main>
      }
    >
      <ReviewScreen key={reviewId} reviewId={reviewId} />
    </Suspense>
  );
}
