/**
 * The forms and links of a server-rendered page, read from its HTML the way a browser
 * without JavaScript would submit and follow them. A small scanner rather than an HTML parser:
 * React writes regular markup (quoted attributes, escaped text), and this reads only that.
 */

/** A named control as the page renders it: its default value, and for a select its options. */
export type FormControl = {
	name: string
	/** The input's type ('text' when not given); 'select' and 'textarea' for those. */
	type: string
	value: string
	checked: boolean
	options: string[]
	attributes: Record<string, string>
}

export type HtmlForm = {
	method: 'get' | 'post'
	/** The absolute URL the form goes to. */
	action: string
	multipart: boolean
	controls: FormControl[]
	/** The named submit buttons; each sends its name and value with the form. */
	submitters: { name: string; value: string }[]
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

function decode(text: string) {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
		if (code[0] === '#')
			return String.fromCodePoint(code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1)))
		return ENTITIES[code.toLowerCase()] ?? entity
	})
}

function attributesOf(source: string) {
	const attributes: Record<string, string> = {}
	for (const match of source.matchAll(/([^\s"'=/>]+)(?:\s*=\s*"([^"]*)")?/g)) attributes[match[1]!.toLowerCase()] = decode(match[2] ?? '')
	return attributes
}

/** The tags of a document in order, each with the text up to the next tag; scripts, styles and comments left out. */
function* tags(html: string) {
	const body = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>|<!--[\s\S]*?-->/gi, '')
	for (const match of body.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s"'=/>]+(?:\s*=\s*"[^"]*")?)*)\s*\/?>/g)) {
		const end = match.index + match[0].length
		const next = body.indexOf('<', end)
		yield {
			closing: match[1] === '/',
			name: match[2]!.toLowerCase(),
			attributes: attributesOf(match[3] ?? ''),
			text: () => decode(body.slice(end, next === -1 ? undefined : next)),
		}
	}
}

/** Every form of a page, with the controls inside it or naming it (`form="id"`). */
export function parseForms(html: string, pageUrl: string): HtmlForm[] {
	const forms: (HtmlForm & { id?: string })[] = []
	const outside: { formId: string; control?: FormControl; submitter?: { name: string; value: string } }[] = []
	let current: (typeof forms)[number] | undefined
	let select: FormControl | undefined
	for (const tag of tags(html)) {
		const { name, attributes } = tag
		if (tag.closing) {
			if (name === 'form') current = undefined
			if (name === 'select') select = undefined
			continue
		}
		if (name === 'form') {
			current = {
				id: attributes.id,
				method: attributes.method?.toLowerCase() === 'post' ? 'post' : 'get',
				action: new URL(attributes.action ?? '', pageUrl).href,
				multipart: attributes.enctype === 'multipart/form-data',
				controls: [],
				submitters: [],
			}
			forms.push(current)
			continue
		}
		const owner = (item: { control?: FormControl; submitter?: { name: string; value: string } }) => {
			if (attributes.form && attributes.form !== current?.id) outside.push({ formId: attributes.form, ...item })
			else if (current && item.control) current.controls.push(item.control)
			else if (current && item.submitter) current.submitters.push(item.submitter)
		}
		if (name === 'option' && select) {
			const value = attributes.value ?? tag.text().trim()
			select.options.push(value)
			if ('selected' in attributes || select.options.length === 1) select.value = value
			continue
		}
		const isSubmit = (name === 'button' && (attributes.type ?? 'submit') === 'submit') || (name === 'input' && attributes.type === 'submit')
		if (isSubmit) {
			if (attributes.name && !('disabled' in attributes)) owner({ submitter: { name: attributes.name, value: attributes.value ?? '' } })
			continue
		}
		if (!['input', 'select', 'textarea'].includes(name) || !attributes.name || 'disabled' in attributes) continue
		if (name === 'input' && ['button', 'reset', 'image'].includes(attributes.type ?? '')) continue
		const control: FormControl = {
			name: attributes.name,
			type: name === 'input' ? (attributes.type ?? 'text').toLowerCase() : name,
			// A textarea's text holds no tag (React escapes it): its default runs to the next `<`, its end tag.
			value:
				name === 'textarea'
					? tag.text()
					: (attributes.value ?? (attributes.type === 'checkbox' || attributes.type === 'radio' ? 'on' : '')),
			checked: 'checked' in attributes,
			options: [],
			attributes,
		}
		if (name === 'select') select = control
		owner({ control })
	}
	for (const { formId, control, submitter } of outside) {
		const form = forms.find((candidate) => candidate.id === formId)
		if (control) form?.controls.push(control)
		if (submitter) form?.submitters.push(submitter)
	}
	return forms.map(({ id: _id, ...form }) => form)
}

/** The same-origin links of a page, absolute, without their fragment. */
export function parseLinks(html: string, pageUrl: string) {
	const origin = new URL(pageUrl).origin
	const links = new Set<string>()
	for (const tag of tags(html)) {
		if (tag.closing || tag.name !== 'a' || !tag.attributes.href) continue
		const url = new URL(tag.attributes.href, pageUrl)
		url.hash = ''
		if (url.origin === origin) links.add(url.href)
	}
	return [...links]
}
