import { lazy } from 'react'

/** The course page's purchase dialog body, loaded only when it opens (as LazyWaitlistDialog, no Suspense boundary). */
export const LazyPurchaseForm = lazy(() => import('./enrollment-agreement.tsx').then((module) => ({ default: module.PurchaseForm })))
