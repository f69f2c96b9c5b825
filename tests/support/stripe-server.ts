import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

/**
 * A local stand-in for the parts of the Stripe HTTP API the app uses
 * (Checkout Sessions: create, retrieve, expire), so that the real `stripe`
 * SDK is exercised over HTTP. It checks what Stripe checks and the app relies
 * on: the secret key, the expires_at window, idempotency keys.
 */
export type StandInSession = {
	id: string
	object: 'checkout.session'
	mode: string
	status: 'open' | 'complete' | 'expired'
	payment_status: 'paid' | 'unpaid'
	amount_total: number
	currency: string
	customer_email: string | null
	customer_details: { email: string | null } | null
	client_reference_id: string | null
	metadata: Record<string, string>
	expires_at: number
	success_url: string
	cancel_url: string
	url: string | null
	created: number
}

export type RecordedRequest = {
	method: string
	path: string
	headers: http.IncomingHttpHeaders
	body: Record<string, unknown>
}

export type StripeStandIn = {
	/** The value for STRIPE_API_URL. */
	url: string
	secretKey: string
	webhookSecret: string
	sessions: Map<string, StandInSession>
	requests: RecordedRequest[]
	/** The customer pays on the hosted page. */
	pay: (sessionId: string) => StandInSession
	/** A signed webhook delivery about the session, as Stripe would post it. */
	webhook: (type: 'checkout.session.completed' | 'checkout.session.expired', sessionId: string) => { body: string; signature: string }
	/** The next session creation is refused, as Stripe refuses a request it cannot serve. */
	refuseNextCreate: () => void
	stop: () => Promise<void>
}

/** Parses Stripe's form encoding (`line_items[0][price_data][currency]=usd`) into nested objects. */
export function parseStripeForm(text: string) {
	const root: Record<string, unknown> = {}
	for (const [key, value] of new URLSearchParams(text)) {
		const parts = key.replace(/\]/g, '').split('[')
		let node = root
		parts.forEach((part, index) => {
			if (index === parts.length - 1) {
				node[part] = value
				return
			}
			node[part] ??= {}
			node = node[part] as Record<string, unknown>
		})
	}
	return root
}

function stripeError(response: http.ServerResponse, status: number, message: string, code?: string) {
	response.writeHead(status, { 'Content-Type': 'application/json' })
	response.end(JSON.stringify({ error: { type: 'invalid_request_error', message, code } }))
}

function json(response: http.ServerResponse, body: unknown) {
	response.writeHead(200, { 'Content-Type': 'application/json' })
	response.end(JSON.stringify(body))
}

export async function startStripeServer(): Promise<StripeStandIn> {
	const secretKey = `sk_test_${randomBytes(12).toString('hex')}`
	const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`
	const sessions = new Map<string, StandInSession>()
	const requests: RecordedRequest[] = []
	const idempotent = new Map<string, StandInSession>()
	let refuseCreate = false

	function createSession(body: Record<string, unknown>, response: http.ServerResponse) {
		if (refuseCreate) {
			refuseCreate = false
			return stripeError(response, 400, 'The stand-in refused this request on purpose.')
		}
		const now = Math.floor(Date.now() / 1000)
		const expiresAt = Number(body.expires_at ?? now + 24 * 3600)
		if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
			return stripeError(response, 400, 'The `expires_at` timestamp must be between 30 minutes and 24 hours from now.')
		}
		if (!body.success_url || body.mode !== 'payment') return stripeError(response, 400, 'Missing required parameters.')
		const items = Object.values(
			(body.line_items ?? {}) as Record<string, { quantity: string; price_data: { unit_amount: string; currency: string } }>,
		)
		const amount = items.reduce((sum, item) => sum + Number(item.price_data.unit_amount) * Number(item.quantity), 0)
		const id = `cs_test_${randomBytes(20).toString('hex')}`
		const session: StandInSession = {
			id,
			object: 'checkout.session',
			mode: String(body.mode),
			status: 'open',
			payment_status: 'unpaid',
			amount_total: amount,
			currency: items[0]?.price_data.currency ?? 'usd',
			customer_email: (body.customer_email as string | undefined) ?? null,
			customer_details: null,
			client_reference_id: (body.client_reference_id as string | undefined) ?? null,
			metadata: (body.metadata ?? {}) as Record<string, string>,
			expires_at: expiresAt,
			success_url: String(body.success_url).replace('{CHECKOUT_SESSION_ID}', id),
			cancel_url: String(body.cancel_url ?? ''),
			url: `https://checkout.stripe.test/c/pay/${id}`,
			created: now,
		}
		sessions.set(id, session)
		return session
	}

	const server = http.createServer((request, response) => {
		let text = ''
		request.setEncoding('utf8')
		request.on('data', (chunk: string) => (text += chunk))
		request.on('end', () => {
			const url = new URL(request.url ?? '/', 'http://localhost')
			const body = parseStripeForm(text)
			requests.push({ method: request.method ?? 'GET', path: url.pathname, headers: request.headers, body })
			if (request.headers.authorization !== `Bearer ${secretKey}`) {
				return stripeError(response, 401, 'Invalid API Key provided.')
			}
			const match = /^\/v1\/checkout\/sessions(?:\/([^/]+))?(\/expire)?$/.exec(url.pathname)
			if (!match) return stripeError(response, 404, 'Unrecognized request URL.')
			const [, id, expire] = match
			if (!id && request.method === 'POST') {
				const key = request.headers['idempotency-key']
				const cached = typeof key === 'string' ? idempotent.get(key) : undefined
				if (cached) return json(response, sessions.get(cached.id))
				const created = createSession(body, response)
				if (!created) return
				if (typeof key === 'string') idempotent.set(key, created)
				return json(response, created)
			}
			const session = id ? sessions.get(decodeURIComponent(id)) : undefined
			if (!session) return stripeError(response, 404, `No such checkout.session: '${id}'`, 'resource_missing')
			if (expire && request.method === 'POST') {
				if (session.status !== 'open') return stripeError(response, 400, 'Only open sessions can be expired.')
				session.status = 'expired'
				session.url = null
				return json(response, session)
			}
			if (request.method === 'GET' && !expire) return json(response, session)
			return stripeError(response, 405, 'Method not allowed.')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as AddressInfo
	const signer = new Stripe(secretKey)

	return {
		url: `http://127.0.0.1:${port}`,
		secretKey,
		webhookSecret,
		sessions,
		requests,
		pay(sessionId) {
			const session = sessions.get(sessionId)
			if (session?.status !== 'open') throw new Error(`Session ${sessionId} cannot be paid`)
			session.status = 'complete'
			session.payment_status = 'paid'
			session.customer_details = { email: session.customer_email }
			session.url = null
			return session
		},
		webhook(type, sessionId) {
			const session = sessions.get(sessionId)
			if (!session) throw new Error(`Unknown session ${sessionId}`)
			const body = JSON.stringify({
				id: `evt_${randomBytes(12).toString('hex')}`,
				object: 'event',
				api_version: Stripe.API_VERSION,
				created: Math.floor(Date.now() / 1000),
				type,
				livemode: false,
				pending_webhooks: 1,
				request: { id: null, idempotency_key: null },
				data: { object: session },
			})
			return { body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret }) }
		},
		refuseNextCreate() {
			refuseCreate = true
		},
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve())
				// The SDK keeps connections alive; they would hold close() open.
				server.closeAllConnections()
			}),
	}
}
