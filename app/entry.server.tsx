import { PassThrough } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { renderToPipeableStream } from 'react-dom/server'
import { type EntryContext, type HandleErrorFunction, isRouteErrorResponse, ServerRouter } from 'react-router'
import { storageOrigin } from '#app/services/storage/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { NonceProvider } from '#app/utils/nonce.tsx'
import { inlineScriptHashes, publicCacheKey } from '#app/utils/page-cache.server.ts'
import { contentSecurityPolicy, createNonce } from '#app/utils/security.server.ts'

export { cachedPublicPage } from '#app/utils/page-cache.server.ts'
export { shutdown, startup } from './lifecycle.server.ts'

export const streamTimeout = 5_000

/**
 * Renders the whole document before answering (onAllReady): pages are small,
 * and a complete document can carry an ETag and be cached. Personal pages get
 * a fresh CSP nonce per response; the public pages every anonymous visitor
 * shares are rendered without one and allow their inline scripts by hash, so
 * their bytes are identical for everyone and may be cached.
 */
export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
) {
	const env = getEnv()
	const shared = publicCacheKey(request) !== null
	const nonce = shared ? undefined : createNonce()
	const policy = (scriptHashes?: string[]) =>
		contentSecurityPolicy({ nonce, scriptHashes, isDevelopment: env.NODE_ENV === 'development', storageOrigin: storageOrigin() })

	if (request.method.toUpperCase() === 'HEAD') {
		responseHeaders.set('Content-Security-Policy', policy())
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}
	const { body, status } = await renderDocument(request, routerContext, responseStatusCode, nonce)
	// The document is complete (onAllReady): sent as one buffer, it goes out in one write
	// rather than as React's many small chunks.
	const html = await buffer(body)
	responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
	responseHeaders.set('Content-Length', String(html.byteLength))
	responseHeaders.set('Content-Security-Policy', policy(shared ? inlineScriptHashes(html.toString()) : undefined))
	return new Response(oneChunkStream(html), { headers: responseHeaders, status })
}

/**
 * The body as a stream of its one buffer: given the bytes themselves, the Fetch Response
 * copies them and wraps the copy in a stream of its own, several times the cost.
 */
function oneChunkStream(bytes: Uint8Array) {
	return new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(bytes)
			controller.close()
		},
	})
}

function renderDocument(request: Request, routerContext: EntryContext, initialStatus: number, nonce: string | undefined) {
	return new Promise<{ body: PassThrough; status: number }>((resolve, reject) => {
		let status = initialStatus
		const timeout = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce ?? ''}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</NonceProvider>,
			{
				nonce,
				onAllReady() {
					const body = new PassThrough({
						final(callback) {
							clearTimeout(timeout)
							callback()
						},
					})
					pipe(body)
					resolve({ body, status })
				},
				onShellError(error) {
					clearTimeout(timeout)
					reject(error)
				},
				onError(error) {
					status = 500
					if (!request.signal.aborted) console.error(error)
				},
			},
		)
	})
}

export const handleError: HandleErrorFunction = (error, { request }) => {
	// A refused request (a method a route does not take, an unknown address) is the client's error, not the server's.
	if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return
	console.error(error)
}
