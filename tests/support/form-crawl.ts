/**
 * Finds the app's forms the way a visitor does: loads every page of the route table (and the
 * pages its links, search forms and redirects lead to, dialogs and filters included) and reads
 * each `<form method="post">` there. What the crawl found, not a list kept by hand, is what a
 * test of the forms covers, so a new form or field is covered as soon as a page renders it.
 */
import { type FormControl, type HtmlForm, parseForms, parseLinks } from './html-forms.ts'
import { concretePath, type RouteInfo, routeOf } from './route-table.ts'

export type Visitor = { name: string; cookie: string }

export type DiscoveredForm = HtmlForm & {
	/** Who saw it first, and on which page. */
	visitor: string
	page: string
	/** The route its POST reaches, and that route's params. */
	routeId: string
	params: Record<string, string>
}

export type FormEntry = [name: string, value: string | File]

/** Pages of one route a visitor loads at most: a bound on a page that links to ever new variants of itself. */
const PAGES_PER_ROUTE = 12

let emailSequence = 0
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)

/** A text that fits the field's own limits (pattern, length) where one of a few does. */
function plausibleText(control: FormControl) {
	const { pattern, minlength, maxlength } = control.attributes
	const fits = (text: string) =>
		(!pattern || new RegExp(`^(?:${pattern})$`, 'v').test(text)) &&
		text.length >= Number(minlength ?? 0) &&
		text.length <= Number(maxlength ?? Number.POSITIVE_INFINITY)
	return ['Plausible text', 'FUZZ2026', '2026', 'Plausible text long enough for any minimum length'].find(fits) ?? 'Plausible text'
}

/** What a person would leave or put in a control: its rendered default, or a valid-looking value of its type. */
function plausibleValue(control: FormControl) {
	if (control.type === 'select') return control.value || control.options.find(Boolean) || ''
	if (control.value || control.type === 'hidden') return control.value
	switch (control.type) {
		case 'email':
			return `fuzz-${++emailSequence}@example.com`
		case 'password':
			return 'Plausible-pass-2026'
		case 'date':
			return control.attributes.min && control.attributes.min > inAMonth ? control.attributes.min : inAMonth
		case 'time':
			return '10:30'
		case 'datetime-local':
			return `${inAMonth}T10:30`
		case 'number':
		case 'range':
			return control.attributes.min ?? '1'
		case 'url':
			return 'https://example.com/fuzz'
		case 'tel':
			return '+1 555 0100'
		default:
			return plausibleText(control)
	}
}

/**
 * The form as a browser sends it when a person fills it in plausibly: rendered defaults kept,
 * empty fields given a valid-looking value of their type, a select's chosen (or first real)
 * option, every checkbox ticked, a radio group's checked (or first) choice, a small text file
 * per file input, and the pressed button's name and value.
 */
export function plausibleEntries(form: HtmlForm, submitter: { name: string; value: string } | undefined) {
	const entries: FormEntry[] = []
	for (const control of form.controls) {
		if (control.type === 'radio') {
			if (entries.some(([name]) => name === control.name)) continue
			const group = form.controls.filter((other) => other.type === 'radio' && other.name === control.name)
			entries.push([control.name, (group.find((other) => other.checked) ?? control).value])
		} else if (control.type === 'file') {
			entries.push([control.name, form.multipart ? new File(['Plausible notes'], 'notes.txt', { type: 'text/plain' }) : 'notes.txt'])
		} else {
			entries.push([control.name, plausibleValue(control)])
		}
	}
	if (submitter) entries.push([submitter.name, submitter.value])
	return entries
}

/**
 * The parts of a page's address that may change what it shows: its path with each query
 * parameter, where a single lower-case word (`?dialog=waitlist`, `?tab=events`) stands for
 * itself and any other value (an id, a search, a name) for any of its kind.
 */
function pageParts(url: URL) {
	const parts = [...url.searchParams].map(([name, value]) => `${url.pathname}?${name}=${/^[a-z]+$/.test(value) ? value : '*'}`)
	return parts.length > 0 ? parts : [`${url.pathname}?`]
}

/** Names and fixed values that tell one form from another: where it posts, its intent, its fields. */
function formIdentity(routeId: string, form: HtmlForm) {
	const fixed = form.controls.filter((control) => control.type === 'hidden' && control.name === 'intent').map((control) => control.value)
	const names = [...new Set(form.controls.map((control) => control.name))].sort()
	const submitters = form.submitters.map((submitter) => `${submitter.name}=${submitter.value}`).sort()
	return [routeId, fixed.join(','), names.join(','), submitters.join(',')].join('|')
}

/**
 * Visits every page that renders (a route module with a component), and the entry points given
 * (pages only an e-mail links to), as each visitor, following same-site links, search forms
 * (filled in plausibly) and redirects to pages of the route table. Each POST form is kept once,
 * as the first visitor who saw it; a page that answers 5xx, or a form that posts where no route
 * answers, is a problem.
 */
export async function crawlForms({
	handle,
	table,
	params,
	entryPoints = [],
	visitors,
}: {
	handle: (request: Request) => Promise<Response>
	table: RouteInfo[]
	params: Record<string, string>
	entryPoints?: string[]
	visitors: Visitor[]
}) {
	const pages = table.filter((route) => typeof (route.module as { default?: unknown }).default === 'function')
	const forms = new Map<string, DiscoveredForm>()
	const problems: string[] = []
	let visits = 0
	for (const visitor of visitors) {
		const queue = [...pages.map((route) => concretePath(route.path, params)), ...entryPoints].map(
			(path) => new URL(path, 'http://localhost'),
		)
		const seenParts = new Set<string>()
		const visitsOf = new Map<string, number>()
		for (let url = queue.shift(); url; url = queue.shift()) {
			const route = await routeOf(url)
			if (!route || !pages.some((page) => page.id === route.id) || (visitsOf.get(route.id) ?? 0) >= PAGES_PER_ROUTE) continue
			// A page is loaded for something not seen yet: a page of another course, a new dialog or tab,
			// a filter; links that only combine what was seen (tab × dialog × search) are left.
			const parts = pageParts(url)
			if (parts.every((part) => seenParts.has(part))) continue
			for (const part of parts) seenParts.add(part)
			visitsOf.set(route.id, (visitsOf.get(route.id) ?? 0) + 1)
			visits++
			const response = await handle(new Request(url, { headers: visitor.cookie ? { Cookie: visitor.cookie } : {} }))
			const location = response.headers.get('Location')
			if (location) queue.push(new URL(location, url))
			if (response.status >= 500) problems.push(`GET ${url.pathname}${url.search} as ${visitor.name}: ${response.status}`)
			if (response.status !== 200 || !response.headers.get('Content-Type')?.startsWith('text/html')) {
				await response.body?.cancel()
				continue
			}
			const html = await response.text()
			for (const link of parseLinks(html, url.href)) queue.push(new URL(link))
			for (const form of parseForms(html, url.href)) {
				const action = new URL(form.action)
				if (form.method === 'get') {
					// A browser sends a search form's fields as the whole query string, dropping the action's own.
					action.search = ''
					for (const [name, value] of plausibleEntries(form, form.submitters[0])) action.searchParams.append(name, String(value))
					if (action.origin === url.origin) queue.push(action)
					continue
				}
				const target = action.origin === url.origin ? await routeOf(action, { post: true }) : null
				if (!target) {
					problems.push(`a form on ${url.pathname} posts to ${form.action}, which no route answers`)
					continue
				}
				const identity = formIdentity(target.id, form)
				if (!forms.has(identity)) {
					forms.set(identity, {
						...form,
						visitor: visitor.name,
						page: `${url.pathname}${url.search}`,
						routeId: target.id,
						params: target.params,
					})
				}
			}
		}
	}
	return { forms: [...forms.values()], visits, problems }
}
