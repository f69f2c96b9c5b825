/**
 * A page as a text browser reads it (README "Browsers"): lynx's dump of the document as the server
 * sent it, no styles and no scripts, every element where it stands in the markup. Lynx shows where
 * a link starts (`[12]Home`) and a button (`(BUTTON) Log Out`), but not where either ends: the
 * markup gets a mark at each end, and one where the main content starts, which lynx prints like any
 * other character.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const END = '⟧'
const MAIN = '⟦main⟧'
const LINK_START = /\[(\d+)\]/g
/** What may stand right before a link or button (an opening bracket or quote) and right after one (closing punctuation). */
const OPENING = '(["\'“‘«'
const CLOSING = ')]"\'”’».,;:!?'

export type TextBrowserReading = {
	/** The page as lynx shows it, up to its list of links. */
	text: string
	/** The links before the main content (header, menus), in the order read: their words and their path. */
	linksBeforeMain: Array<{ text: string; path: string }>
	/** Lines where a link runs into the link or button before it, or a link or button into the words beside it. */
	runTogether: string[]
	/**
	 * Controls with no words a text browser shows: an empty link or button (or one lynx leaves out of
	 * the page for want of words), a bare check box, a field no line names.
	 */
	unlabelled: string[]
}

export function readAsTextBrowser(html: string): TextBrowserReading {
	const marked = html.replaceAll('</a>', `${END}</a>`).replaceAll('</button>', `${END}</button>`).replace('<main', `<p>${MAIN}</p><main`)
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'text-browser-'))
	const file = path.join(directory, 'page.html')
	fs.writeFileSync(file, marked)
	let dump: string
	try {
		// Wide lines: a link wrapped onto the next line would hide what stands beside it.
		dump = execFileSync(
			process.env.LYNX_PATH ?? 'lynx',
			['-dump', '-force_html', '-width=1024', '-assume_charset=utf-8', '-display_charset=utf-8', file],
			{ encoding: 'utf8' },
		)
	} finally {
		fs.rmSync(directory, { recursive: true, force: true })
	}
	const referencesAt = dump.lastIndexOf('\nReferences\n')
	const text = referencesAt === -1 ? dump : dump.slice(0, referencesAt)
	const references = referencesAt === -1 ? '' : dump.slice(referencesAt)
	const targets = new Map<number, string>()
	for (const [, number, url] of references.matchAll(/^\s*(\d+)\. (\S+)$/gm)) targets.set(Number(number), pathOf(url!, file))
	const lines = text.split('\n')
	const mainLine = lines.findIndex((line) => line.includes(MAIN))

	const linksBeforeMain = lines.slice(0, mainLine === -1 ? lines.length : mainLine).flatMap((line) =>
		[...line.matchAll(LINK_START)].map((match) => {
			const start = match.index + match[0].length
			const end = line.indexOf(END, start)
			return { text: line.slice(start, end === -1 ? undefined : end).trim(), path: targets.get(Number(match[1])) ?? '' }
		}),
	)
	const runTogether = lines.filter((line) => runsTogether(line)).map((line) => line.trim())
	const unlabelled = [
		...unlabelledOnLines(lines.map((line) => line.replaceAll(MAIN, ''))),
		...[...(references.split('Hidden links:')[1] ?? '').matchAll(/^\s*\d+\. (\S+)$/gm)].map(
			([, url]) => `a link with no words, to ${pathOf(url!, file)}`,
		),
	]
	return { text: text.replaceAll(END, '').replace(MAIN, ''), linksBeforeMain, runTogether, unlabelled }
}

/** A link's path on the site: lynx read the document from a file, so `/about` came back as `file:///about`. */
function pathOf(url: string, file: string) {
	const local = url.match(/^file:\/\/(?:localhost)?(\/.*)$/)?.[1]
	if (local === undefined) return url
	return local.startsWith(file) ? local.slice(file.length) || '.' : local
}

/**
 * A link that starts right after a link or button ends, with at most spaces between, or a link or
 * button stuck to a word. Lynx sets "(BUTTON)" before a button, which parts it from what comes
 * before; nothing parts a link.
 */
function runsTogether(line: string) {
	for (let at = line.indexOf(END); at !== -1; at = line.indexOf(END, at + 1)) {
		const after = line.slice(at + 1)
		if (/^\s*\[\d+\]/.test(after)) return true
		const next = after.charAt(0)
		if (next && next !== END && !/\s/.test(next) && !CLOSING.includes(next)) return true
	}
	for (const match of line.matchAll(/\[\d+\]|\(BUTTON\)/g)) {
		const before = line.charAt(match.index - 1)
		if (before && before !== END && !/\s/.test(before) && !OPENING.includes(before)) return true
	}
	return false
}

/**
 * A check box or radio button must have words on its line (lynx shows a label where it stands in
 * the markup, so it stands beside the box or nowhere near it); a field's words may be on the line
 * above, as a label over a field is. Empty links and buttons have no words at all.
 */
function unlabelledOnLines(lines: string[]) {
	const found: string[] = []
	let previousNamed = false
	for (const raw of lines) {
		const line = raw.replaceAll(/\[\d+\]/g, '')
		if (/\[\d+\]\s*⟧/.test(raw)) found.push(`a link with no words: ${raw.trim()}`)
		if (/\(BUTTON\)\s*(⟧|$)/.test(raw)) found.push(`a button with no words: ${raw.trim()}`)
		const box = /\[[ X]\]|\([ *]\)/.test(line)
		const field = /_{2,}|\[[^\]]+\]/.test(line.replaceAll(/\[[ X]\]/g, ''))
		const words = line
			.replaceAll(END, '')
			.replaceAll(/\[[ X]\]|\([ *]\)/g, '')
			.replaceAll(/\[[^\]]*\]|\S*_{2,}/g, '')
		const hasWords = /[\p{L}\p{N}]/u.test(words)
		if (box && !hasWords) found.push(`a check box or radio button with no words beside it: ${raw.trim()}`)
		if (field && !hasWords && !previousNamed) found.push(`a field with no words beside or above it: ${raw.trim()}`)
		if (line.trim()) previousNamed = hasWords || (field && previousNamed)
	}
	return found
}
