import type { Page } from '@playwright/test'

/**
 * Holds the browser's requests for a path — its document, or its data when JavaScript navigates —
 * until the returned function is called. A page that moves on by itself after a pause (a meta
 * refresh, a timer) then stays in view while the test reads it, however slow the machine: the
 * test waits for the page, not for a clock.
 */
export async function holdRequestsTo(page: Page, pathname: string) {
	let release!: () => void
	const released = new Promise<void>((resolve) => {
		release = resolve
	})
	await page.route(
		(url) => url.pathname === pathname || url.pathname === `${pathname}.data`,
		async (route) => {
			await released
			await route.continue()
		},
	)
	return release
}
