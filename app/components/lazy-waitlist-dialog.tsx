import { lazy } from 'react'

/**
 * The waitlist dialog for the public course pages, whose code (Conform, Zod) only a
 * visitor who opens it downloads. As with the home page's offer editor there is no
 * Suspense boundary: the server renders the open dialog in place for a browser without
 * JavaScript, and a client-side navigation to it waits for the code before it shows.
 */
export const LazyWaitlistDialog = lazy(() => import('./waitlist-form.tsx').then((module) => ({ default: module.WaitlistDialog })))
