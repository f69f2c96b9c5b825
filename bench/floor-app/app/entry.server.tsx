import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { type EntryContext, ServerRouter } from 'react-router'

export const streamTimeout = 5_000

/**
 * React Router's default entry as it answers a browser (the shell, then the rest streamed), written
 * out: without an entry of its own the build would use the default, which needs `isbot`, and install
 * `isbot` into the project's package.json and node_modules (an npm install that dropped the dev
 * dependencies) since the app itself no longer depends on it.
 */
export default function handleRequest(request: Request, status: number, headers: Headers, routerContext: EntryContext) {
	if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers })
	return new Promise<Response>((resolve, reject) => {
		let timeout: NodeJS.Timeout | undefined = setTimeout(() => abort(), streamTimeout + 1000)
		const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
			onShellReady() {
				const body = new PassThrough({
					final(callback) {
						clearTimeout(timeout)
						timeout = undefined
						callback()
					},
				})
				headers.set('Content-Type', 'text/html')
				pipe(body)
				resolve(new Response(createReadableStreamFromReadable(body), { headers, status }))
			},
			onShellError: reject,
		})
	})
}
