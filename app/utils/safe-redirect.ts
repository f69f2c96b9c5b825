/** Resolves targets as a browser would on this site; `.invalid` can never be a real host. */
const SITE = 'http://site.invalid'
/** Longer than any path of the app with its query; a longer target is not one of ours. */
const MAX_TARGET_LENGTH = 2000

/**
 * A same-site path from a value a visitor can choose (`redirectTo`, `returnTo`), for a redirect
 * or a link; anything else gives the fallback. The value is parsed exactly as a browser parses
 * a link (tabs and newlines dropped, backslashes read as slashes, percent-encoding kept) and must
 * stay on the site; what comes back is that parse written out again, so it is plain ASCII, fit
 * for a Location header, and every browser reads it the same way.
 */
export function safeRedirectPath(target: FormDataEntryValue | string | null | undefined, fallback = '/') {
	if (typeof target !== 'string' || !target.startsWith('/') || target.length > MAX_TARGET_LENGTH) return fallback
	let url: URL
	try {
		url = new URL(target, SITE)
	} catch {
		return fallback
	}
	if (url.origin !== SITE) return fallback
	const path = `${url.pathname}${url.search}${url.hash}`
	// '/.//evil.example' is a path of this site whose written-out form, '//evil.example', is another host.
	return path.startsWith('//') ? fallback : path
}
