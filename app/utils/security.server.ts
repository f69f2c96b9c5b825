import { randomBytes } from 'node:crypto'

export function createNonce() {
	return randomBytes(16).toString('base64')
}

type CspOptions = {
	/** A per-response nonce, or the hashes of the inline scripts of a page served to everyone alike. */
	nonce?: string
	scriptHashes?: string[]
	isDevelopment: boolean
	/** Origin of the file store when files are served by presigned redirects (S3). */
	storageOrigin?: string
}

const youtubeEmbed = 'https://www.youtube-nocookie.com'
const officeViewers = ['https://view.officeapps.live.com', 'https://docs.google.com']
const stripeCheckout = 'https://checkout.stripe.com'
/** Stripe's customer portal: a plan's update-card form posts to the app, which redirects there (docs/decisions/062). */
const stripePortal = 'https://billing.stripe.com'

export function contentSecurityPolicy({ nonce, scriptHashes, isDevelopment, storageOrigin }: CspOptions) {
	const storage = storageOrigin ? [storageOrigin] : []
	const directives: Record<string, string[]> = {
		'default-src': ["'self'"],
		'script-src': [
			"'self'",
			...(nonce ? [`'nonce-${nonce}'`] : []),
			...(scriptHashes ?? []),
			...(isDevelopment ? ["'unsafe-inline'"] : []),
		],
		'style-src': ["'self'", "'unsafe-inline'"],
		'img-src': ["'self'", 'data:', 'blob:', 'https://i.ytimg.com', ...storage],
		'media-src': ["'self'", 'blob:', ...storage],
		'font-src': ["'self'"],
		'connect-src': ["'self'", ...storage, ...(isDevelopment ? ['ws:', 'wss:'] : [])],
		'frame-src': ["'self'", youtubeEmbed, ...officeViewers, ...storage],
		'worker-src': ["'self'", 'blob:'],
		'object-src': ["'none'"],
		'base-uri': ["'none'"],
		'form-action': ["'self'", stripeCheckout, stripePortal],
		'frame-ancestors': ["'self'"],
	}
	return Object.entries(directives)
		.map(([name, values]) => `${name} ${values.join(' ')}`)
		.join('; ')
}

/** Headers every response carries, whatever produced it. */
export function baseSecurityHeaders({ isProduction, secure }: { isProduction: boolean; secure: boolean }) {
	const headers: Record<string, string> = {
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		'X-Frame-Options': 'SAMEORIGIN',
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(self)',
	}
	if (isProduction && secure) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains'
	return headers
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser sent on behalf of another site.
 * Browsers send Sec-Fetch-Site and Origin with every non-GET request; a request
 * without either (curl, server-to-server) is not a forgery risk for cookie sessions.
 */
export function isCrossSiteRequest(method: string, headers: { get(name: string): string | null }, allowedOrigins: string[]) {
	if (SAFE_METHODS.has(method.toUpperCase())) return false
	const fetchSite = headers.get('sec-fetch-site')
	if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true
	const origin = headers.get('origin')
	if (origin && origin !== 'null') return !allowedOrigins.includes(origin)
	if (origin === 'null') return true
	return false
}
