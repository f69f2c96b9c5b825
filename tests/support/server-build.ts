/**
 * The app as React Router's production server sees it, assembled in Vitest: the same
 * `createRequestHandler` over a ServerBuild made of app/root.tsx, app/entry.server.tsx and the
 * route modules of app/routes.ts, so an integration test gets whole documents (root loader,
 * middleware, layouts, the page) without a Vite build. Only the browser assets are stand-ins:
 * no test here loads the page's scripts.
 */
import type { RouteConfigEntry } from '@react-router/dev/routes'
import {
	createRequestHandler,
	type RequestHandler,
	type ServerBuild,
	UNSAFE_withComponentProps as withComponentProps,
	UNSAFE_withErrorBoundaryProps as withErrorBoundaryProps,
} from 'react-router'
import routes from '#app/routes.ts'
import { type RouteModule, routeId } from './route-table.ts'

type ServerRoute = NonNullable<ServerBuild['routes'][string]>
type Module = ServerRoute['module']
type ConfiguredRoute = Omit<ServerRoute, 'module'> & { file: string }

function flatten(entries: RouteConfigEntry[], parentId: string, into: ConfiguredRoute[] = []) {
	for (const entry of entries) {
		const id = routeId(entry)
		into.push({ id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive, file: entry.file })
		if (entry.children) flatten(entry.children, id, into)
	}
	return into
}

/** What React Router's Vite plugin does to every route module: the component gets `loaderData`, `actionData` and `params` as props. */
function asBuilt(module: Module): Module {
	const built = { ...module }
	if (module.default) built.default = withComponentProps(module.default as never)
	if (module.ErrorBoundary) built.ErrorBoundary = withErrorBoundaryProps(module.ErrorBoundary as never)
	return built
}

/** The route's entry in the browser manifest, which the document's scripts would load. */
function assetsRoute({
	id,
	parentId,
	path,
	index,
	caseSensitive,
	module,
}: ServerRoute): NonNullable<ServerBuild['assets']['routes'][string]> {
	return {
		id,
		parentId,
		path,
		index,
		caseSensitive,
		module: `/assets/${id}.js`,
		hasAction: typeof module.action === 'function',
		hasLoader: typeof module.loader === 'function',
		hasClientAction: false,
		hasClientLoader: false,
		hasClientMiddleware: false,
		hasErrorBoundary: typeof module.ErrorBoundary === 'function',
		clientActionModule: undefined,
		clientLoaderModule: undefined,
		clientMiddlewareModule: undefined,
		hydrateFallbackModule: undefined,
	}
}

async function assembleBuild(): Promise<ServerBuild> {
	const moduleLoaders = import.meta.glob<RouteModule>('/app/routes/**/*.{ts,tsx}')
	const [entryServer, root] = await Promise.all([import('#app/entry.server.tsx'), import('#app/root.tsx')])
	// The stylesheet is a build asset, without a URL under Vitest (an empty href React would warn about).
	const serverRoutes: Record<string, ServerRoute> = { root: { id: 'root', path: '', module: asBuilt({ ...root, links: undefined }) } }
	for (const { file, ...route } of flatten(await routes, 'root')) {
		const load = moduleLoaders[`/app/${file}`]
		if (!load) throw new Error(`Route module not found: app/${file}`)
		serverRoutes[route.id] = { ...route, module: asBuilt((await load()) as Module) }
	}
	const assetsRoutes = Object.fromEntries(Object.values(serverRoutes).map((route) => [route.id, assetsRoute(route)]))
	return {
		entry: { module: entryServer },
		routes: serverRoutes,
		assets: {
			entry: { module: '/assets/entry.client.js', imports: [] },
			routes: assetsRoutes,
			url: '/assets/manifest.js',
			version: 'test',
		},
		publicPath: '/',
		assetsBuildDirectory: 'build/client',
		future: {},
		ssr: true,
		isSpaMode: false,
		prerender: [],
		routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
	}
}

let handler: Promise<RequestHandler> | undefined

/** React Router's request handler over the assembled build (made once per test file). */
export function appRequestHandler() {
	handler ??= assembleBuild().then((build) => createRequestHandler(build, 'production'))
	return handler
}
