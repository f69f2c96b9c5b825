import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { ServerRouter, type EntryContext, type HandleErrorFunction } from 'react-router'
import { NonceProvider } from '#app/utils/nonce.tsx'
import { contentSecurityPolicy, createNonce } from '#app/utils/security.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { storageOrigin } from '#app/services/storage/index.server.ts'

export { startup, shutdown } from '#app/utils/lifecycle.server.ts'

export const streamTimeout = 5_000

/**
 * Renders the whole document before answering (onAllReady): pages are small,
 * and a complete document can carry an ETag and be cached.
 */
export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
) {
	const env = getEnv()
	const nonce = createNonce()
	responseHeaders.set(
		'Content-Security-Policy',
		contentSecurityPolicy({
			nonce,
			isDevelopment: env.NODE_ENV === 'development',
			storageOrigin: storageOrigin(),
		}),
	)
	if (request.method.toUpperCase() === 'HEAD') {
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}

	return new Promise<Response>((resolve, reject) => {
		let status = responseStatusCode
		const timeout = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
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
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					pipe(body)
					resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }))
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
	if (request.signal.aborted) return
	console.error(error)
}
