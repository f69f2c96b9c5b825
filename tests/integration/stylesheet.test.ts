/**
 * The stylesheet as the production build makes it (app/app.css through Tailwind, the PostCSS
 * plugins and the minifier of vite.config.ts), checked against the browsers package.json's
 * `browserslist` names and against engines without cascade layers (NetSurf, Dillo, Chrome < 99,
 * Safari < 15.4, Firefox < 97), which skip every rule inside an `@layer`.
 */
import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import browserslist from 'browserslist'
import doiuse from 'doiuse'
import postcss, { type AtRule, type Declaration, type Node, type Root } from 'postcss'
import { build, type Rolldown } from 'vite'
import { beforeAll, describe, expect, test } from 'vitest'
import viteConfig from '../../vite.config.ts'

/**
 * Features caniuse says some listed browser lacks, each used knowingly. Anything else doiuse
 * reports as unsupported fails the test (features only partly supported are not counted).
 */
const KNOWINGLY_USED: Record<string, string> = {
	'css-not-sel-list': 'misread: the flattened layers add `:not(#\\#)`, one simple selector (a test below checks for lists)',
	'css-lch-lab': 'after a hex fallback for the same property, or inside @supports (checked below)',
	'css-color-function': 'after a hex fallback for the same property, or inside @supports (checked below)',
	'extended-system-fonts': 'font stacks go on to named fonts',
	'css-file-selector-button': 'Preflight styling of the file button; older Firefox shows its own',
	'css-dir-pseudo': 'Preflight spacing beside the file button; browsers without :dir() skip it',
	'css-focus-visible': 'browsers without :focus-visible draw their own focus ring',
	'css-resize': 'iOS does not let textareas be resized; they still scroll',
	'css-backdrop-filter': 'the sticky header is 95 % opaque white without the blur',
	'css3-cursors': 'touch browsers show no pointer at all; the control works the same',
	'css-has': 'highlights the chosen course card; the radio button itself shows the choice',
	'css3-attr': 'only in `content` (CSS 2.1, every browser: the stacked table labels, checked below); doiuse flags any attr()',
}

let css = ''
let root: Root

beforeAll(async () => {
	const output = (await build({
		configFile: false,
		root: path.resolve(import.meta.dirname, '../..'),
		logLevel: 'silent',
		plugins: [tailwindcss()],
		css: viteConfig.css,
		build: {
			write: false,
			cssTarget: viteConfig.build?.cssTarget,
			rolldownOptions: { input: 'app/app.css' },
		},
	})) as Rolldown.RolldownOutput
	const asset = output.output.find((file) => file.type === 'asset' && file.fileName.endsWith('.css'))
	css = String(asset?.type === 'asset' ? asset.source : '')
	root = postcss.parse(css)
}, 60_000)

function ancestors(node: Node) {
	const found: AtRule[] = []
	for (let parent: Node | undefined = node.parent; parent && parent.type !== 'root'; parent = parent.parent) {
		if (parent.type === 'atrule') found.push(parent as AtRule)
	}
	return found
}

describe('the built stylesheet', () => {
	test('has no cascade layers left: every rule applies in engines that skip @layer', () => {
		expect(css.length).toBeGreaterThan(10_000)
		const layers: string[] = []
		root.walkAtRules('layer', (rule) => {
			layers.push(rule.params)
		})
		expect(layers).toEqual([])
	})

	test('hides what must stay hidden with plain rules outside any @layer, @media or @supports', () => {
		const topLevel = new Map<string, string>()
		root.each((node) => {
			if (node.type !== 'rule') return
			for (const selector of node.selectors) {
				const className = selector.match(/^\.(sr-only|hidden)(?=:not\(#\\#\)|$)/)?.[1]
				if (className) topLevel.set(className, node.toString())
			}
		})
		expect(topLevel.get('hidden')).toMatch(/display:\s*none/)
		expect(topLevel.get('sr-only')).toMatch(/position:\s*absolute/)
		expect(topLevel.get('sr-only')).toMatch(/overflow:\s*hidden/)
	})

	test('gives every modern colour a plain fallback before it, or keeps it inside @supports', () => {
		const unguarded: string[] = []
		root.walkDecls((declaration: Declaration) => {
			if (declaration.prop.startsWith('--')) return
			if (!/\b(oklch|oklab|lab|lch|color|color-mix)\(/.test(declaration.value)) return
			if (ancestors(declaration).some((rule) => rule.name === 'supports')) return
			const siblings = declaration.parent?.nodes ?? []
			const fallback = siblings
				.slice(0, siblings.indexOf(declaration))
				.some((node) => node.type === 'decl' && node.prop === declaration.prop && !/\b(oklch|oklab|lab|lch|color-mix)\(/.test(node.value))
			if (!fallback) unguarded.push(`${declaration.parent?.toString().slice(0, 80)}`)
		})
		expect(unguarded).toEqual([])
	})

	test("uses attr() only for `content` (directly or through Tailwind's --tw-content), the CSS 2.1 use every browser has", () => {
		const elsewhere: string[] = []
		root.walkDecls((declaration: Declaration) => {
			if (/\battr\(/.test(declaration.value) && !['content', '--tw-content'].includes(declaration.prop))
				elsewhere.push(declaration.toString())
		})
		expect(css).toMatch(/content:\s*attr\(/)
		expect(elsewhere).toEqual([])
	})

	test('uses no selector list inside :not(), which Firefox < 84 cannot parse (it would drop the whole rule)', () => {
		expect(css.match(/:not\([^()]*,[^()]*\)/g) ?? []).toEqual([])
	})

	test('uses nothing the listed browsers lack but the features known to degrade gracefully (doiuse)', async () => {
		const browsers = browserslist()
		expect(browsers).toContain('safari 14.1')
		const unsupported = new Map<string, string>()
		await postcss([
			doiuse({
				browsers,
				onFeatureUsage: (usage) => {
					if (Object.keys(usage.featureData.missingData ?? {}).length === 0) return
					if (!(usage.feature in KNOWINGLY_USED)) unsupported.set(usage.feature, usage.message)
				},
			}),
		]).process(css, { from: undefined })
		expect(Object.fromEntries(unsupported)).toEqual({})
	})
})
