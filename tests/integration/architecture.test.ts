/**
 * Keeps the dependency direction of docs/ARCHITECTURE.md true as the code grows:
 * every import in app/** is read with a real parser (oxc, through Vite) and checked
 * against the layer rules below; a failure names the file, the import and the rule.
 * Two more rules keep each rule in one place: a route or `.server` file takes only
 * what it renders from app/components (schemas and rules live in app/models), and
 * every file under app/routes is a route of app/routes.ts or a marked helper.
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
		name: 'components never import a .server file (not even a type): what both sides need lives in app/models/<area>/<entity>.ts',
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
		name: 'e-mail templates are used by models only, a template (.tsx) by app/models/<area>/*-emails.server.ts only, which no script imports (Node cannot load .tsx)',
		breaks: ({ from, fromLayer, toLayer, to }) =>
			toLayer === 'emails' &&
			fromLayer !== 'emails' &&
			(fromLayer !== 'models' || (to.endsWith('.tsx') && !from.endsWith('-emails.server.ts'))),
	},
	{
		name: 'mail is queued from a rendered template: among models, only app/models/messaging/emails.server.ts (the mail queue) and app/models/<area>/*-emails.server.ts files use the mail service (app/services/mail), so no plain-text mail is sent',
		breaks: ({ from, fromLayer, to, typeOnly }) =>
			fromLayer === 'models' &&
			to.startsWith('app/services/mail/') &&
			!typeOnly &&
			from !== 'app/models/messaging/emails.server.ts' &&
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

/**
 * What a route or a `.server` file may take from app/components: only what it renders. Precisely,
 * a name imported from a file under app/components (by a file outside it, under app/routes, app/root.tsx or
 * any `*.server.ts(x)`) must be a value import whose every use in the importing file is
 * - the tag of a JSX element (`<Name …>`, `</Name>`, `<Name.Part>`), or
 * - for a hook (`use` + a capital letter), a call (`useName(…)`).
 * A route may also pass a component on as its own `ErrorBoundary` (`export { X as ErrorBoundary } from …`),
 * which React Router renders; any other re-export from app/components fails.
 * Anything else fails, naming the file and the name: a type import (`import type`, `type X`), a
 * namespace or default import, a schema, a constant, a plain function called or passed on, a name used
 * in a type (`typeof Name`). A schema, a rule, a type or a path that a route needs lives in
 * app/models/<area>/<entity>.ts or app/utils, where the component imports it too.
 */
function takesFromComponentsOnlyForRendering(file: string) {
	if (file.startsWith('app/components/')) return false
	return file.startsWith('app/routes/') || file === 'app/root.tsx' || isServerOnly(file)
}

type AstNode = { type: string; name?: string; [key: string]: unknown }

function* walk(node: unknown, parent: AstNode | null, key: string): Generator<{ node: AstNode; parent: AstNode | null; key: string }> {
	if (Array.isArray(node)) {
		for (const child of node) yield* walk(child, parent, key)
		return
	}
	if (!node || typeof node !== 'object' || typeof (node as AstNode).type !== 'string') return
	const current = node as AstNode
	if (current.type === 'ImportDeclaration') return
	yield { node: current, parent, key }
	for (const [childKey, child] of Object.entries(current)) if (child && typeof child === 'object') yield* walk(child, current, childKey)
}

/** Whether one reference to an imported name is rendering: a JSX tag, or a hook's call. */
function rendersWith(name: string, { node, parent, key }: { node: AstNode; parent: AstNode | null; key: string }) {
	if (node.type === 'JSXIdentifier') {
		if ((parent?.type === 'JSXOpeningElement' || parent?.type === 'JSXClosingElement') && key === 'name') return true
		return parent?.type === 'JSXMemberExpression' && key === 'object'
	}
	return /^use[A-Z]/.test(name) && parent?.type === 'CallExpression' && key === 'callee'
}

function componentUseViolations(file: string, source: string) {
	if (!takesFromComponentsOnlyForRendering(file)) return []
	const parsed = parseSync(file, source)
	const found: string[] = []
	const names = new Map<string, string>()
	for (const statement of parsed.module.staticImports) {
		const to = resolveImport(file, statement.moduleRequest.value)
		if (!to?.startsWith('app/components/')) continue
		for (const entry of statement.entries) {
			const local = entry.localName.value
			if (entry.isType || entry.importName.kind !== 'Name') {
				found.push(`${file} imports ${entry.isType ? 'the type ' : ''}${local} from ${to}: ${COMPONENT_USE_RULE}`)
			} else names.set(local, to)
		}
	}
	for (const statement of parsed.module.staticExports) {
		for (const entry of statement.entries) {
			const to = entry.moduleRequest && resolveImport(file, entry.moduleRequest.value)
			if (!to?.startsWith('app/components/')) continue
			const exported = entry.exportName.name ?? '*'
			const rendersAsBoundary = exported === 'ErrorBoundary' && !entry.isType && file.startsWith('app/routes/')
			if (!rendersAsBoundary) found.push(`${file} re-exports ${exported} from ${to}: ${COMPONENT_USE_RULE}`)
		}
	}
	if (names.size === 0) return found
	const misused = new Set<string>()
	for (const reference of walk(parsed.program, null, 'program')) {
		const { node } = reference
		if ((node.type !== 'Identifier' && node.type !== 'JSXIdentifier') || !node.name || !names.has(node.name)) continue
		if (!rendersWith(node.name, reference)) misused.add(node.name)
	}
	for (const name of misused) found.push(`${file} uses ${name} of ${names.get(name)} other than to render it: ${COMPONENT_USE_RULE}`)
	return found
}

const COMPONENT_USE_RULE =
	'a route or .server file takes from app/components only what it renders (JSX tags, hooks it calls); schemas, rules, constants and types live in app/models or app/utils'

/** Route helpers are marked: they live in a `+shared/` folder of their area (a `.server` one keeps its `.server`). */
const isMarkedHelper = (file: string) => file.split('/').includes('+shared')

/** Files under app/routes that are neither a route of app/routes.ts nor a marked helper, and routes placed among helpers. */
function unmarkedRouteFiles(files: string[], routeModules: Set<string>) {
	const found: string[] = []
	for (const file of files) {
		if (!file.startsWith('app/routes/')) continue
		const isRoute = routeModules.has(file)
		if (!isRoute && !isMarkedHelper(file))
			found.push(`${file} is not a route of app/routes.ts: a helper beside routes goes in a +shared/ folder of its area`)
		if (isRoute && isMarkedHelper(file))
			found.push(`${file} is a route of app/routes.ts inside a +shared/ folder, which holds helpers only`)
	}
	return found
}

describe('import direction', () => {
	test('every import in app/ follows the layer rules of docs/ARCHITECTURE.md', async () => {
		const imports = appImports()
		expect(imports.length).toBeGreaterThan(500)
		expect(violations(imports, await routeModuleFiles())).toEqual([])
	})

	test('a route or .server file imports from app/components only what it renders', () => {
		const files = globSync('app/**/*.{ts,tsx}', { cwd: root }).filter((file) => !/\.test\.tsx?$/.test(file))
		expect(files.filter(takesFromComponentsOnlyForRendering).length).toBeGreaterThan(100)
		expect(files.flatMap((file) => componentUseViolations(file, readFileSync(path.join(root, file), 'utf8')))).toEqual([])
	})

	test('every file under app/routes is a route of app/routes.ts or a helper in a +shared/ folder', async () => {
		const files = globSync('app/routes/**/*', { cwd: root, withFileTypes: true })
			.filter((entry) => entry.isFile())
			.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
		expect(files.length).toBeGreaterThan(80)
		expect(unmarkedRouteFiles(files, await routeModuleFiles())).toEqual([])
	})

	test('the rendering-only and marked-helper rules catch what they are for', async () => {
		const uses = (file: string, source: string) => componentUseViolations(file, source)
		const course = "import { CourseFields, useCourseForm } from '#app/components/admin/course-form.tsx'\n"
		expect(
			uses(
				'app/routes/admin/courses.tsx',
				`${course}export default function C() { const [f, x] = useCourseForm({}); return <CourseFields fields={x} /> }`,
			),
		).toEqual([])
		expect(
			uses('app/routes/x.tsx', "import { Card } from '#app/components/ui/card.tsx'\nexport default () => <Card.Root><Card /></Card.Root>"),
		).toEqual([])
		expect(
			uses(
				'app/routes/admin/course-edit.tsx',
				"import { CourseFormSchema } from '#app/components/admin/course-form.tsx'\nparse(CourseFormSchema)",
			),
		).toHaveLength(1)
		expect(
			uses(
				'app/routes/resources/attachment-file.ts',
				"import { isPreviewable } from '#app/components/messages/attachment-view.tsx'\nisPreviewable('image/png')",
			),
		).toHaveLength(1)
		expect(
			uses(
				'app/routes/register/+shared/wizard.server.ts',
				"import type { PromotionCodePreview } from '#app/components/promotion-code-field.tsx'",
			),
		).toHaveLength(1)
		expect(
			uses(
				'app/routes/a.tsx',
				"import { type IconName, Icon } from '#app/components/marketing/icons.tsx'\nexport default () => <Icon name={'x' as IconName} />",
			),
		).toHaveLength(1)
		expect(
			uses(
				'app/routes/a.tsx',
				"import { Badge } from '#app/components/ui/badge.tsx'\ntype T = Parameters<typeof Badge>\nexport default () => <Badge />",
			),
		).toHaveLength(1)
		expect(uses('app/routes/a.tsx', "import { useThing } from '#app/components/thing.tsx'\nconst f = useThing")).toHaveLength(1)
		expect(uses('app/routes/a.tsx', "import * as UI from '#app/components/ui/card.tsx'\nexport default () => <UI.Card />")).toHaveLength(1)
		expect(
			uses(
				'app/models/enrollment/seats.server.ts',
				"import { PurchaseSchema } from '#app/components/enrollment-agreement.tsx'\nPurchaseSchema.parse({})",
			),
		).toHaveLength(1)
		expect(uses('app/components/x.tsx', "import { isPreviewable } from './messages/attachment-view.tsx'\nisPreviewable('a')")).toEqual([])
		const boundary = "export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'"
		expect(uses('app/routes/admin/audit-log.tsx', boundary)).toEqual([])
		expect(uses('app/models/enrollment/seats.server.ts', boundary)).toHaveLength(1)
		expect(uses('app/routes/a.tsx', "export { CourseFormSchema } from '#app/components/admin/course-form.tsx'")).toHaveLength(1)
		expect(uses('app/routes/a.tsx', "export * from '#app/components/admin/course-form.tsx'")).toHaveLength(1)
		const routeModules = await routeModuleFiles()
		expect(unmarkedRouteFiles(['app/routes/register/wizard.tsx', 'app/routes/admin/enrollments.shared.ts'], routeModules)).toHaveLength(2)
		expect(unmarkedRouteFiles(['app/routes/auth/login.server.ts'], routeModules)).toHaveLength(1)
		expect(unmarkedRouteFiles(['app/routes/register/+shared/wizard.tsx', 'app/routes/auth/login.tsx'], routeModules)).toEqual([])
		expect(unmarkedRouteFiles(['app/routes/auth/+shared/login.tsx'], new Set(['app/routes/auth/+shared/login.tsx']))).toHaveLength(1)
	})

	test('models are grouped by area and named one way: app/models/<area>/<entity>[-admin|-emails][.server].ts', () => {
		const models = globSync('app/models/**/*.{ts,tsx}', { cwd: root }).map((file) => file.split(path.sep).join('/'))
		expect(models.length).toBeGreaterThan(50)
		const misplaced = models.filter(
			(file) => !/^app\/models\/[a-z]+\/[a-z]+(?:-[a-z]+)*(?:\.server)?(?:\.test)?\.ts$/.test(file) || /\/admin-/.test(file),
		)
		expect(misplaced).toEqual([])
	})

	test('no two files of app/ import each other, directly or around a loop', () => {
		expect(cycles(appImports())).toEqual([])
	})

	test('the rules catch each kind of loop the code once had', async () => {
		const routeModules = await routeModuleFiles()
		const once = (from: string, specifier: string, source = `import { x } from '${specifier}'`) =>
			violations(importsOf(from, source), routeModules)
		expect(once('app/models/materials/uploads.server.ts', '#app/components/uploads/upload-schema.ts')).toHaveLength(1)
		expect(
			once(
				'app/components/grading/grade-panel.tsx',
				'',
				"import type { SubmissionDetail } from '#app/models/materials/assignments.server.ts'",
			),
		).toHaveLength(1)
		expect(once('app/components/messages/actions.server.ts', '#app/utils/db.server.ts')).toHaveLength(1)
		expect(once('app/components/layout/site-header.tsx', '#app/root.tsx')).toHaveLength(2)
		expect(once('app/utils/auth.server.ts', '#app/models/accounts/users.server.ts')).toHaveLength(1)
		expect(once('app/utils/page-toast.server.ts', '#app/components/ui/toast.tsx')).toHaveLength(1)
		expect(once('app/routes/register/course.tsx', '', "import type { loader } from '../public/courses.tsx'")).toHaveLength(1)
		expect(once('app/models/courses/courses.server.ts', '#app/routes/admin/courses.server.ts')).toHaveLength(2)
		expect(once('app/routes/admin/courses.tsx', '#app/models/courses/courses.server.ts')).toEqual([])
		expect(once('app/components/course-availability.tsx', '#app/models/courses/courses.ts')).toEqual([])
		expect(once('app/models/courses/courses.server.ts', '#app/jobs/index.server.ts')).toHaveLength(1)
		expect(once('app/jobs/mail.server.ts', '#app/components/ui/toast.tsx')).toHaveLength(1)
		expect(once('app/lifecycle.server.ts', '#app/jobs/index.server.ts')).toEqual([])
		expect(once('app/models/messaging/messages.server.ts', '#app/emails/announcement.tsx')).toHaveLength(1)
		expect(once('app/routes/admin/messages/broadcast.tsx', '#app/emails/announcement.tsx')).toHaveLength(1)
		expect(once('app/emails/layout.tsx', '#app/utils/env.server.ts')).toHaveLength(1)
		expect(once('app/models/accounts/account-emails.server.ts', '#app/emails/confirm-email.tsx')).toEqual([])
		expect(once('app/models/messaging/emails.server.ts', '#app/emails/render.server.ts')).toEqual([])
		expect(once('app/models/enrollment/waitlist.server.ts', '#app/services/mail/index.server.ts')).toHaveLength(1)
		expect(once('app/models/messaging/announcement-emails.server.ts', '#app/services/mail/index.server.ts')).toEqual([])
		expect(
			cycles([
				{ from: 'app/a.ts', to: 'app/b.ts', typeOnly: false },
				{ from: 'app/b.ts', to: 'app/a.ts', typeOnly: true },
			]),
		).toEqual([['app/a.ts', 'app/b.ts']])
	})
})
