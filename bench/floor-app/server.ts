/**
 * The floor app's server, started by scripts/bench/run.ts: Express with compression in front of
 * React Router's request handler, as scripts/server/http.ts serves the app, with as many
 * processes (node:cluster, WEB_CONCURRENCY) as the app under test. BUILD_DIR, PORT and
 * DATABASE_URL come from the bench.
 */
import cluster from 'node:cluster'
import path from 'node:path'
import { createRequestHandler } from '@react-router/express'
import compression from 'compression'
import express from 'express'
import type { ServerBuild } from 'react-router'

const workers = Number(process.env.WEB_CONCURRENCY ?? 1)
const port = Number(process.env.PORT ?? 3000)

if (cluster.isPrimary && workers > 1) {
	for (let index = 0; index < workers; index++) cluster.fork()
	let listening = 0
	cluster.on('listening', () => {
		if (++listening === workers) console.log(`Server listening on http://127.0.0.1:${port}`)
	})
	process.on('SIGTERM', () => {
		for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM')
		process.exit(0)
	})
} else {
	const buildDir = path.resolve(process.env.BUILD_DIR ?? 'build')
	const build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild
	const app = express()
	app.disable('x-powered-by')
	app.use(compression())
	app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
	app.use(createRequestHandler({ build, mode: 'production' }))
	const server = app.listen(port, '127.0.0.1', () => {
		if (cluster.isPrimary) console.log(`Server listening on http://127.0.0.1:${port}`)
	})
	server.keepAliveTimeout = 65_000
	process.on('SIGTERM', () => server.close(() => process.exit(0)))
}
