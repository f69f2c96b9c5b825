/**
 * Keeps the dependency direction of docs/ARCHITECTURE.md true as the code grows:
 * every import in app/** is read with a real parser (oxc, through Vite) and checked
 * against the layer rules below; a failure names the file, the import and the rule.
 */
import { globSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseSync } from 'vite'
import { describe, expect, test } from 'vitest'
import { listRoutes } from '#tests/support/route-table.ts'

type Layer = 'shell' | 'routes' | 'components' | 'models' | 'services' | 'utils' | 'jobs' | 'emails' | 'db' | 'other'

type Import = { from: string; to: string; typeOnly: boolean }

type Rule = { name: string; breaks: (edge: Import & { fromLayer: Layer; toLayer: Layer }, routeModules: Set<string>) => boolean }

function layerOf(file: string): Layer {
	if (file.startsWith('db/')) return 'db'
	const [top, area] = file.split('/')
	if (top !== 'app') return 'other'
	if (!file.slice('app/'.length).includes('/')) return 'shell'
	if (
		area === 'routes' ||
		area === 'components' ||
		area === 'models' ||
		area === 'services' ||
		area === 'utils' ||
		area === 'jobs' ||
		area === 'emails'
	)
		return area
	return 'other'
}

const isServerOnly = (file: string) => /\.server\.tsx?$/.test(file)

const RULES: Rule[] = [
	{
		name: 'components never import a .server file (not even a type): what both sides need lives in app/models/<entity>.ts',
		breaks: ({ fromLayer, to }) => fromLayer === 'components' && isServerOnly(to),
	},
	{
		name: 'components never import routes or the app shell (root.tsx, entry files)',
		breaks: ({ fromLayer, toLayer }) => fromLayer === 'components' && (toLayer === 'routes' || toLayer === 'shell'),
	},
	{
		name: 'models never import components, routes or the app shell',
		breaks: ({ fromLayer, toLayer }) => fromLayer === 'models' && ['components', 'routes', 'shell'].includes(toLayer),
	},
	{
		name: 'services and utils never import models, components, routes or the app shell',
		breaks: ({ fromLayer, toLayer }) =>
			(fromLayer === 'services' || fromLayer === 'utils') && ['models', 'components', 'routes', 'shell'].includes(toLayer),
	},
	{
		name: 'jobs (tasks of the job system) are started by the app shell only, and never import components or routes',
		breaks: ({ fromLayer, toLayer }) =>
			(toLayer === 'jobs' && fromLayer !== 'jobs' && fromLayer !== 'shell') ||
			(fromLayer === 'jobs' && (toLayer === 'components' || toLayer === 'routes')),
	},
	{
		name: 'e-mail templates (app/emails) take plain props: they import nothing else of app/',
		breaks: ({ fromLayer, toLayer, to }) => fromLayer === 'emails' && toLayer !== 'emails' && to.startsWith('app/'),
	},
	{
		name: 'e-mail templates are used by models only, a template (.tsx) by app/models/*-emails.server.ts only, which no script imports (Node cannot load .tsx)',
		breaks: ({ from, fromLayer, toLayer, to }) =>
			toLayer === 'emails' &&
			fromLayer !== 'emails' &&
			(fromLayer !== 'models' || (to.endsWith('.tsx') && !from.endsWith('-emails.server.ts'))),
	},
	{
		name: 'mail is queued from a rendered template: among models, only app/models/emails.server.ts and *-emails.server.ts files use the mail service (app/services/mail), so no plain-text mail is sent',
		breaks: ({ from, fromLayer, to, typeOnly }) =>
			fromLayer === 'models' &&
			to.startsWith('app/services/mail/') &&
			!typeOnly &&
			from !== 'app/models/emails.server.ts' &&
			!from.endsWith('-emails.server.ts'),
	},
	{
		name: 'no module imports a route module (a route shares code through a helper file beside it, or a component or model)',
		breaks: ({ to }, routeModules) => routeModules.has(to),
	},
	{
		name: 'helpers in app/routes serve routes only',
		breaks: ({ fromLayer, toLayer }) => toLayer === 'routes' && fromLayer !== 'routes' && fromLayer !== 'shell',
	},
]

const root = path.resolve(import.meta.dirname, '../..')

/** Where an import specifier points, as a path from the repository root; null for packages and generated types. */
function resolveImport(from: string, specifier: string): string | null {
	const bare = specifier.replace(/\?.*$/, '')
	if (bare.includes('/+types/')) return null
	if (bare.startsWith('#app/')) return `app/${bare.slice('#app/'.length)}`
	if (bare.startsWith('#db/')) return `db/${bare.slice('#db/'.length)}`
	if (bare.startsWith('#tests/')) return `tests/${bare.slice('#tests/'.length)}`
	if (bare.startsWith('.')) return path.posix.normalize(path.posix.join(path.posix.dirname(from), bare))
	return null
}

/** The static imports and re-exports of a file (dynamic `import()` included). */
function importsOf(file: string, source: string): Import[] {
	const parsed = parseSync(file, source)
	if (parsed.errors.length > 0) throw new Error(`${file} does not parse: ${parsed.errors[0]?.message}`)
	const found: Import[] = []
	const add = (specifier: string, typeOnly: boolean) => {
		const to = resolveImport(file, specifier)
		if (to) found.push({ from: file, to, typeOnly })
	}
	for (const statement of parsed.module.staticImports) {
		const { entries } = statement
		add(statement.moduleRequest.value, entries.length > 0 && entries.every((entry) => entry.isType))
	}
	for (const statement of parsed.module.staticExports) {
		for (const entry of statement.entries) if (entry.moduleRequest) add(entry.moduleRequest.value, entry.isType)
	}
	for (const dynamic of parsed.module.dynamicImports) {
		const literal = /^['"`](.*)['"`]$/.exec(source.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end))
		if (literal?.[1]) add(literal[1], false)
	}
	return found
}

function violations(imports: Import[], routeModules: Set<string>) {
	const found: string[] = []
	for (const edge of imports) {
		const fromLayer = layerOf(edge.from)
		const toLayer = layerOf(edge.to)
		for (const rule of RULES) {
			if (rule.breaks({ ...edge, fromLayer, toLayer }, routeModules)) {
				found.push(`${edge.from} imports ${edge.to}${edge.typeOnly ? ' (types)' : ''}: ${rule.name}`)
			}
		}
	}
	return found
}

/** Import cycles between files (Tarjan's strongly connected components), each as its files. */
function cycles(imports: Import[]) {
	const graph = new Map<string, string[]>()
	for (const { from, to } of imports) graph.set(from, [...(graph.get(from) ?? []), to])
	const index = new Map<string, number>()
	const low = new Map<string, number>()
	const stack: string[] = []
	const onStack = new Set<string>()
	const found: string[][] = []
	let counter = 0
	const visit = (node: string) => {
		index.set(node, counter)
		low.set(node, counter)
		counter += 1
		stack.push(node)
		onStack.add(node)
		for (const next of graph.get(node) ?? []) {
			if (!index.has(next)) {
				visit(next)
				low.set(node, Math.min(low.get(node)!, low.get(next)!))
			} else if (onStack.has(next)) {
				low.set(node, Math.min(low.get(node)!, index.get(next)!))
			}
		}
		if (low.get(node) === index.get(node)) {
			const component: string[] = []
			let member: string
			do {
				member = stack.pop()!
				onStack.delete(member)
				component.push(member)
			} while (member !== node)
			if (component.length > 1) found.push(component.sort())
		}
	}
	for (const node of graph.keys()) if (!index.has(node)) visit(node)
	return found
}

async function routeModuleFiles() {
	const routes = await listRoutes()
	return new Set(['app/root.tsx', ...routes.map((route) => `app/${route.file}`)])
}

function appImports() {
	const files = globSync('app/**/*.{ts,tsx}', { cwd: root }).filter((file) => !/\.test\.tsx?$/.test(file))
	return files.flatMap((file) => importsOf(file, readFileSync(path.join(root, file), 'utf8')))
}

describe('import direction', () => {
	test('every import in app/ follows the layer rules of docs/ARCHITECTURE.md', async () => {
		const imports = appImports()
		expect(imports.length).toBeGreaterThan(500)
		expect(violations(imports, await routeModuleFiles())).toEqual([])
	})

	test('no two files of app/ import each other, directly or around a loop', () => {
		expect(cycles(appImports())).toEqual([])
	})

	test('the rules catch each kind of loop the code once had', async () => {
		const routeModules = await routeModuleFiles()
		const once = (from: string, specifier: string, source = `import { x } from '${specifier}'`) =>
			violations(importsOf(from, source), routeModules)
		expect(once('app/models/uploads.server.ts', '#app/components/uploads/upload-schema.ts')).toHaveLength(1)
		expect(
			once('app/components/grading/grade-panel.tsx', '', "import type { SubmissionDetail } from '#app/models/assignments.server.ts'"),
		).toHaveLength(1)
		expect(once('app/components/messages/actions.server.ts', '#app/utils/db.server.ts')).toHaveLength(1)
		expect(once('app/components/layout/site-header.tsx', '#app/root.tsx')).toHaveLength(2)
		expect(once('app/utils/auth.server.ts', '#app/models/users.server.ts')).toHaveLength(1)
		expect(once('app/utils/page-toast.server.ts', '#app/components/ui/toast.tsx')).toHaveLength(1)
		expect(once('app/routes/register/course.tsx', '', "import type { loader } from '../public/courses.tsx'")).toHaveLength(1)
		expect(once('app/models/courses.server.ts', '#app/routes/admin/courses.server.ts')).toHaveLength(2)
		expect(once('app/routes/admin/courses.tsx', '#app/models/courses.server.ts')).toEqual([])
		expect(once('app/components/course-availability.tsx', '#app/models/courses.ts')).toEqual([])
		expect(once('app/models/courses.server.ts', '#app/jobs/index.server.ts')).toHaveLength(1)
		expect(once('app/jobs/mail.server.ts', '#app/components/ui/toast.tsx')).toHaveLength(1)
		expect(once('app/lifecycle.server.ts', '#app/jobs/index.server.ts')).toEqual([])
		expect(once('app/models/messages.server.ts', '#app/emails/announcement.tsx')).toHaveLength(1)
		expect(once('app/routes/admin/messages/broadcast.tsx', '#app/emails/announcement.tsx')).toHaveLength(1)
		expect(once('app/emails/layout.tsx', '#app/utils/env.server.ts')).toHaveLength(1)
		expect(once('app/models/account-emails.server.ts', '#app/emails/confirm-email.tsx')).toEqual([])
		expect(once('app/models/emails.server.ts', '#app/emails/render.server.ts')).toEqual([])
		expect(once('app/models/waitlist.server.ts', '#app/services/mail/index.server.ts')).toHaveLength(1)
		expect(once('app/models/announcement-emails.server.ts', '#app/services/mail/index.server.ts')).toEqual([])
		expect(
			cycles([
				{ from: 'app/a.ts', to: 'app/b.ts', typeOnly: false },
				{ from: 'app/b.ts', to: 'app/a.ts', typeOnly: true },
			]),
		).toEqual([['app/a.ts', 'app/b.ts']])
	})
})
