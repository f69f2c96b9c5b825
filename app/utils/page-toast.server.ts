import type { ToastMessage } from './toast.ts'

/** An error toast a loader returns as its page's `pageToast` (shown once by the root, with or without JavaScript). */
export function errorPageToast(title: string, description?: string): ToastMessage {
	return { id: crypto.randomUUID(), type: 'error', title, description }
}

/**
 * For a page made of parts that can fail on their own (messages: contacts, thread,
 * announcements): a part that cannot be loaded shows empty, as the spec degrades, and the
 * page reports the first such failure as its toast (`pageToast`, shown by the root).
 */
export function partialPage(scope: string) {
	let failure: string | null = null
	return {
		async load<T>(part: Promise<T>, fallback: T, failureTitle: string): Promise<T> {
			try {
				return await part
			} catch (error) {
				console.error(`[${scope}] ${failureTitle}:`, error instanceof Error ? error.message : error)
				failure ??= failureTitle
				return fallback
			}
		},
		pageToast(): ToastMessage | null {
			return failure ? errorPageToast(failure) : null
		},
	}
}
