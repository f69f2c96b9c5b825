import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

/**
 * Node runs scripts/ and db/ straight from TypeScript by stripping types, which cannot load
 * `.tsx`. A model that imports a component module type-checks and builds, yet breaks every
 * script that reaches it (the seed, the bench), so the import graph of each script is
 * walked here.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
/** package.json "imports", e.g. '#app/' → 'app/'. */
const ALIASES: Record<string, string> = Object.fromEntries(
	Object.entries(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>).map(
		([pattern, target]) => [pattern.replace(/\*$/, ''), path.normalize(target.replace(/\*$/, ''))],
	),
)
// Whole-statement `import type` and `export type` are erased; every other form is loaded.
const SPECIFIER =
	/(?:^|\n)\s*(?:import(?!\s+type\s)[^'"]*?from\s*|import\s*\(\s*|import\s+|export(?!\s+type\s)[^'"]*?from\s*)['"]([^'"]+)['"]/g

function scriptEntries(dir: string): string[] {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const relative = path.join(dir, entry.name)
		if (entry.isDirectory()) return scriptEntries(relative)
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : []
	})
}

function resolveLocal(from: string, specifier: string) {
	const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix))
	if (alias) return path.join(ALIASES[alias]!, specifier.slice(alias.length))
	if (specifier.startsWith('.')) return path.join(path.dirname(from), specifier)
	return null
}

/** Every local module `entry` loads, directly or not, each with the module that imports it. */
function importGraph(entry: string) {
	const importedBy = new Map<string, string>([[entry, '']])
	const pending = [entry]
	for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
		if (file.endsWith('.tsx')) continue
		const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
		for (const [, specifier] of source.matchAll(SPECIFIER)) {
			const imported = resolveLocal(file, specifier!)
			if (imported === null || importedBy.has(imported)) continue
			importedBy.set(imported, file)
			pending.push(imported)
		}
	}
	return importedBy
}

test.each([...scriptEntries('scripts'), ...scriptEntries('db')])('%s loads no .tsx module', (entry) => {
	const tsxImports = [...importGraph(entry)].filter(([file]) => file.endsWith('.tsx')).map(([file, by]) => `${by} → ${file}`)
	expect(tsxImports).toEqual([])
})

test('the walk follows aliases and relative imports', () => {
	const graph = importGraph('scripts/bench/explain.ts')
	expect(graph.get('app/models/materials/materials.server.ts')).toBe('scripts/bench/explain.ts')
	expect([...graph.keys()]).toContain('app/utils/db.server.ts')
})
