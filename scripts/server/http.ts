/**
 * The HTTP server: Express in front of the React Router request handler, with
 * compression, immutable caching of built assets, forgery checks, security
 * headers, a structured request log and graceful shutdown; shared public pages
 * held in memory are answered before Express. Started by scripts/server.ts,
 * alone or as one of several cluster workers.
 */
import cluster from 'node:cluster'
import http from 'node:http'
import type net from 'node:net'
import path from 'node:path'
import { createRequestHandler } from '@react-router/express'
import accepts from 'accepts'
import compression from 'compression'
import express from 'express'
import onHeaders from 'on-headers'
import proxyAddr from 'proxy-addr'
import type { ServerBuild } from 'react-router'
import { getEnv } from '#app/utils/env.server.ts'
import type { CachedAnswer, cachedPublicPage } from '#app/utils/page-cache.server.ts'
import { baseSecurityHeaders, isCrossSiteRequest } from '#app/utils/security.server.ts'

type AppEntryModule = ServerBuild['entry']['module'] & {
	startup: (build: Pick<ServerBuild, 'routes'>) => Promise<void>
	shutdown: () => Promise<void>
	cachedPublicPage: typeof cachedPublicPage
}

const isDev = process.argv.includes('--dev')
const env = getEnv()
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? 'build')
const BUILD_PATH = path.join(BUILD_DIR, 'server/index.js')
/**
 * Requests that carry their own proof (a signature), not a browser cookie: the Stripe webhook,
 * and the one-click unsubscribe that mail clients post from their own sites (RFC 8058).
 */
const FORGERY_EXEMPT_PATHS = new Set(['/webhooks/stripe', '/unsubscribe/one-click'])

/** TRUST_PROXY counts the proxy hops in front of the app whose X-Forwarded-For entry is believed. */
const isTrustedHop = (_address: string, hop: number) => hop < env.TRUST_PROXY

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', isTrustedHop)

const securityHeaders = baseSecurityHeaders({ isProduction: env.NODE_ENV === 'production', secure: env.secureCookies })

const LOG_LEVEL_RANK = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 } as const
/** Whether a successful answer is logged at all: the page cache's answers then skip working out the client's address. */
const logsRequests = LOG_LEVEL_RANK.info >= LOG_LEVEL_RANK[env.LOG_LEVEL]

/** The request log: one JSON line per response at or above LOG_LEVEL (5xx are errors; assets only at debug). */
function logRequest(request: { method: string; path: string; ip: string; started: number }, status: number) {
	const level = status >= 500 ? 'error' : 'info'
	if (LOG_LEVEL_RANK[level] < LOG_LEVEL_RANK[env.LOG_LEVEL]) return
	if (env.LOG_LEVEL !== 'debug' && request.path.startsWith('/assets/')) return
	console.log(
		JSON.stringify({
			time: new Date().toISOString(),
			level,
			method: request.method,
			path: request.path,
			status,
			ms: Math.round(performance.now() - request.started),
			ip: request.ip,
		}),
	)
}

/**
 * Rewrites a request target in absolute form ('GET http://host/faq', which proxies send and
 * servers must accept: RFC 9112 §3.2.2) to its path and query, and the host from it, so that
 * everything after sees '/faq'. Returns false for a target that is neither form.
 */
function toOriginForm(req: http.IncomingMessage) {
	if (req.url?.startsWith('/')) return true
	const url = URL.parse(req.url ?? '')
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false
	req.url = `${url.pathname}${url.search}`
	req.headers.host = url.host
	return true
}

/**
 * Whether the request names a host that a URL can hold: the router builds the request's URL
 * from Host (and X-Forwarded-Host) and throws on one it cannot parse ('a b', port 99999).
 * A client's own X-Forwarded-Host is dropped unless proxies are trusted.
 */
function hasUsableHost(req: http.IncomingMessage) {
	if (env.TRUST_PROXY === 0) delete req.headers['x-forwarded-host']
	const forwarded = [req.headers['x-forwarded-host'] ?? []].flat().flatMap((value) => value.split(','))
	return [req.headers.host ?? '', ...forwarded].every((host) => host.trim() !== '' && URL.canParse(`http://${host.trim()}`))
}

/**
 * A public page every anonymous visitor shares goes out from memory, compressed once, before
 * Express or the router see the request: it is most of the traffic, and a GET is never refused
 * as forgery. Returns whether it answered.
 */
function answerFromPageCache(req: http.IncomingMessage, res: http.ServerResponse) {
	const target = req.url!
	if (isDev || (req.method !== 'GET' && req.method !== 'HEAD')) return false
	const started = performance.now()
	const hit = entry.cachedPublicPage({
		method: req.method,
		// Only the path and query choose the page; the host is not part of the key.
		target,
		cookie: req.headers.cookie,
		ifNoneMatch: req.headers['if-none-match'],
		acceptsGzip: req.headers['accept-encoding'] !== undefined && accepts(req).encoding('gzip') === 'gzip',
	})
	if (!hit) return false
	res.writeHead(hit.status, cachedAnswerHeaders(hit)).end(hit.body)
	if (logsRequests) logRequest({ method: req.method, path: target.split('?')[0]!, ip: proxyAddr(req, isTrustedHop), started }, hit.status)
	return true
}

/** The response headers of a cached answer, built once per answer (the cache gives the same object each time). */
const headersByAnswer = new WeakMap<CachedAnswer, http.OutgoingHttpHeaders>()
function cachedAnswerHeaders(hit: CachedAnswer) {
	let headers = headersByAnswer.get(hit)
	if (!headers) {
		// With a length the bytes go out in one write, not chunked.
		const length = hit.body ? { 'Content-Length': hit.body.byteLength } : {}
		headers = { ...securityHeaders, ...Object.fromEntries(hit.headers), ...length }
		headersByAnswer.set(hit, headers)
	}
	return headers
}

app.use((req, res, next) => {
	const started = performance.now()
	// Defaults for every response, added as the headers go out: a response that set one itself
	// keeps its own value (the router appends its headers, so setting them first would send both).
	onHeaders(res, () => {
		for (const [name, value] of Object.entries(securityHeaders)) if (!res.hasHeader(name)) res.setHeader(name, value)
	})
	// Downstream code reads the client address from this header; never trust a client's copy.
	req.headers['x-client-ip'] = req.ip ?? ''
	res.on('finish', () => logRequest({ method: req.method, path: req.path, ip: req.ip ?? '', started }, res.statusCode))
	next()
})

const allowedOrigins = [env.APP_URL]
app.use((req, res, next) => {
	if (FORGERY_EXEMPT_PATHS.has(req.path)) return next()
	const headers = { get: (name: string) => req.get(name) ?? null }
	const ownOrigin = `${req.protocol}://${req.get('host')}`
	if (isCrossSiteRequest(req.method, headers, [...allowedOrigins, ownOrigin])) {
		res.status(403).type('text/plain').send('Cross-site request refused.')
		return
	}
	next()
})

// Server-sent events must not be buffered by compression.
const isEventStream = (res: express.Response) => String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')
app.use(compression({ filter: (req, res) => !isEventStream(res) && compression.filter(req, res) }))

/**
 * Stop signals are heard from the first moment: one that arrives while the app is still
 * starting (a worker replaced just before a deploy's SIGTERM) stops it as soon as it has
 * started, instead of being swallowed by a listener the start-up registered.
 */
let started = false
let stopSignal: string | undefined
function onStopSignal(signal: string) {
	if (started) void shutdown(signal)
	else stopSignal ??= signal
}
process.on('SIGTERM', () => onStopSignal('SIGTERM'))
process.on('SIGINT', () => onStopSignal('SIGINT'))

let entry: AppEntryModule
if (isDev) {
	const vite = await import('vite')
	const viteServer = await vite.createServer({ server: { middlewareMode: true } })
	app.use(viteServer.middlewares)
	const loadBuild = () => viteServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
	const firstBuild = await loadBuild()
	entry = firstBuild.entry.module as AppEntryModule
	await entry.startup(firstBuild)
	app.use(createRequestHandler({ build: loadBuild, mode: 'development' }))
} else {
	const build = (await import(BUILD_PATH)) as ServerBuild
	entry = build.entry.module as AppEntryModule
	await entry.startup(build)
	app.use('/assets', express.static(path.join(BUILD_DIR, 'client/assets'), { immutable: true, maxAge: '1y' }))
	// Public files all have an extension; a page's path is not looked up on disk.
	const publicFiles = express.static(path.join(BUILD_DIR, 'client'), { maxAge: '1h' })
	app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()))
	app.use(createRequestHandler({ build, mode: env.NODE_ENV }))
}

/**
 * An answer can go out before its request's body has been read (an upload refused at its
 * first part). The router's body stream then stops pulling and the rest of the body stays
 * on the connection, so the next request on it would wait forever: detach that stream and
 * read the rest to nowhere, as Node does for a body nobody touched.
 */
function discardUnreadBody(req: http.IncomingMessage) {
	if (req.complete || req.destroyed) return
	req.removeAllListeners('data')
	req.resume()
}

/**
 * The methods the app answers. The router turns most others into a 405 itself, but a few
 * (TRACE, TRACK) are ones the fetch `Request` it builds refuses to hold, which was a 500.
 */
const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const METHOD_NOT_ALLOWED = 'Method not allowed.'
const methodNotAllowedHeaders = {
	...securityHeaders,
	'Content-Type': 'text/plain',
	'Content-Length': String(METHOD_NOT_ALLOWED.length),
	Allow: SERVED_METHODS.join(', '),
}

const server = http.createServer((req, res) => {
	res.once('finish', () => discardUnreadBody(req))
	if (!SERVED_METHODS.includes(req.method ?? '')) {
		res.writeHead(405, methodNotAllowedHeaders).end(METHOD_NOT_ALLOWED)
		return
	}
	if (!toOriginForm(req)) {
		res.writeHead(400, { ...securityHeaders, 'Content-Type': 'text/plain' }).end('Bad request target.')
		return
	}
	if (!hasUsableHost(req)) {
		res.writeHead(400, { ...securityHeaders, 'Content-Type': 'text/plain' }).end('Bad Host header.')
		return
	}
	if (!answerFromPageCache(req, res)) void app(req, res)
})
// CONNECT (a proxy tunnel) never reaches the handler above; unanswered, Node would just drop the connection.
server.on('connect', (_req, socket: net.Socket) => {
	const head = Object.entries({ ...methodNotAllowedHeaders, Connection: 'close' })
		.map(([name, value]) => `${name}: ${value}\r\n`)
		.join('')
	socket.on('error', () => socket.destroy())
	socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${head}\r\n${METHOD_NOT_ALLOWED}`)
})
function refuseToStart(error: Error) {
	console.error(`Cannot listen on ${env.HOST}:${env.PORT}: ${error.message}`)
	process.exit(1)
}
server.keepAliveTimeout = 65_000

/** What the launcher stops once the app has closed (the embedded database it started). */
const shutdownSteps: Array<() => Promise<void>> = []
export function afterShutdown(step: () => Promise<void>) {
	shutdownSteps.push(step)
}

let shuttingDown = false
async function shutdown(signal: string) {
	if (shuttingDown) return
	shuttingDown = true
	console.log(`${signal} received: finishing in-flight requests`)
	const forceExit = setTimeout(() => {
		console.error('Shutdown timed out; exiting')
		process.exit(1)
	}, 15_000)
	forceExit.unref()
	server.close(async () => {
		await entry.shutdown().catch((error: unknown) => console.error('Shutdown error', error))
		for (const step of shutdownSteps) await step().catch((error: unknown) => console.error('Shutdown error', error))
		process.exit(0)
	})
	// Idle keep-alive sockets would hold close() open, and so would one that finishes its
	// in-flight response after the signal: close them as they fall idle. Streams are ended by the app.
	server.closeIdleConnections()
	setInterval(() => server.closeIdleConnections(), 100).unref()
}

started = true
if (stopSignal) {
	// Asked to stop while starting: nothing was served, so nothing to drain.
	console.log(`${stopSignal} received while starting: stopping`)
	shuttingDown = true
	await entry.shutdown().catch((error: unknown) => console.error('Shutdown error', error))
	process.exit(0)
}
// The port cannot be bound (in use, not permitted).
server.once('error', refuseToStart)
server.listen(env.PORT, env.HOST, () => {
	server.off('error', refuseToStart)
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : env.PORT
	// A cluster's primary announces the port once every worker listens.
	if (!cluster.isWorker) console.log(`Server listening on http://localhost:${port} (${env.NODE_ENV})`)
})
