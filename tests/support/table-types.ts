/**
 * Reads db/types.ts the way Kysely reads it, column by column, for tests/integration/schema-types.test.ts.
 * TypeScript 7 parses through its native compiler (`typescript/unstable/*`, the only API it has):
 * a throwaway tsconfig naming the one file keeps that to a few tens of milliseconds.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Node, SourceFile, TypeAliasDeclaration, TypeNode } from 'typescript/unstable/ast'
import { SyntaxKind } from 'typescript/unstable/ast'
import {
	isArrayTypeNode,
	isIdentifier,
	isInterfaceDeclaration,
	isLiteralTypeNode,
	isParenthesizedTypeNode,
	isPropertySignatureDeclaration,
	isStringLiteral,
	isTypeAliasDeclaration,
	isTypeLiteralNode,
	isTypeReferenceNode,
	isUnionTypeNode,
} from 'typescript/unstable/ast/is'
import { API } from 'typescript/unstable/sync'

type PlainKind = 'string' | 'number' | 'boolean' | 'Date' | 'object' | 'unknown' | 'null' | 'undefined' | 'never'
/** One member of a union, reduced to what a SQL type can be compared with. */
export type TypeMember = { kind: PlainKind } | { kind: 'literal'; value: string } | { kind: 'other'; text: string }

export type ColumnTypeFacts = {
	/** As written in the table interface, for messages. */
	written: string
	/** What a select returns (ColumnType's first argument, Generated's argument). */
	select: TypeMember[]
	/** What an insert accepts. */
	insert: TypeMember[]
}

/** The tables of the `Database` interface: table name → column name → facts. */
export type TableTypes = Map<string, Map<string, ColumnTypeFacts>>

type Sides = { select: TypeMember[]; insert: TypeMember[] }

export function readTableTypes(file: string): TableTypes {
	const source = parse(file)
	const text = (node: Node) => source.text.slice(node.pos, node.end).trim()
	const aliases = new Map<string, TypeAliasDeclaration>()
	const interfaces = new Map<string, Map<string, { type: TypeNode; optional: boolean }>>()
	for (const statement of source.statements) {
		if (isTypeAliasDeclaration(statement) && !statement.typeParameters) aliases.set(statement.name.text, statement)
		if (isInterfaceDeclaration(statement)) {
			const members = new Map<string, { type: TypeNode; optional: boolean }>()
			for (const member of statement.members) {
				if (isPropertySignatureDeclaration(member) && member.type && isIdentifier(member.name))
					members.set(member.name.text, { type: member.type, optional: member.postfixToken?.kind === SyntaxKind.QuestionToken })
			}
			interfaces.set(statement.name.text, members)
		}
	}

	const plain = (member: TypeMember): Sides => ({ select: [member], insert: [member] })
	const resolve = (node: TypeNode): Sides => {
		if (isParenthesizedTypeNode(node)) return resolve(node.type)
		if (isUnionTypeNode(node)) {
			const sides = node.types.map(resolve)
			return { select: sides.flatMap((side) => side.select), insert: sides.flatMap((side) => side.insert) }
		}
		if (isLiteralTypeNode(node)) {
			if (node.literal.kind === SyntaxKind.NullKeyword) return plain({ kind: 'null' })
			if (isStringLiteral(node.literal)) return plain({ kind: 'literal', value: node.literal.text })
			return plain({ kind: 'other', text: text(node) })
		}
		if (isArrayTypeNode(node) || isTypeLiteralNode(node)) return plain({ kind: 'object' })
		const keyword = KEYWORDS.get(node.kind)
		if (keyword) return plain({ kind: keyword })
		if (isTypeReferenceNode(node) && isIdentifier(node.typeName)) {
			const name = node.typeName.text
			const args = node.typeArguments ?? []
			// Kysely's ColumnType<Select, Insert, Update>: each argument is a plain type.
			if (name === 'ColumnType' && args[0] && args[1]) return { select: resolve(args[0]).select, insert: resolve(args[1]).select }
			if (name === 'Generated' && args[0]) {
				const inner = resolve(args[0])
				return { select: inner.select, insert: [...inner.insert, { kind: 'undefined' }] }
			}
			if (name === 'Date') return plain({ kind: 'Date' })
			if (name === 'Record') return plain({ kind: 'object' })
			const alias = aliases.get(name)
			if (alias) return resolve(alias.type)
		}
		return plain({ kind: 'other', text: text(node) })
	}

	// `column?:` makes Kysely read the column as possibly undefined, which no row is.
	const facts = (node: TypeNode, optional: boolean): ColumnTypeFacts => {
		const { select, insert } = resolve(node)
		if (!optional) return { written: text(node), select, insert }
		const undefinedMember: TypeMember = { kind: 'undefined' }
		return { written: `${text(node)} (an optional property)`, select: [...select, undefinedMember], insert: [...insert, undefinedMember] }
	}

	const database = interfaces.get('Database')
	if (!database) throw new Error(`${file} has no Database interface`)
	const tables: TableTypes = new Map()
	for (const [table, { type: reference }] of database) {
		const name = isTypeReferenceNode(reference) && isIdentifier(reference.typeName) ? reference.typeName.text : undefined
		const columns = name === undefined ? undefined : interfaces.get(name)
		if (!columns) throw new Error(`Database.${table} is not an interface declared in ${file}`)
		tables.set(table, new Map([...columns].map(([column, member]) => [column, facts(member.type, member.optional)])))
	}
	return tables
}

const KEYWORDS = new Map<SyntaxKind, PlainKind>([
	[SyntaxKind.StringKeyword, 'string'],
	[SyntaxKind.NumberKeyword, 'number'],
	[SyntaxKind.BooleanKeyword, 'boolean'],
	[SyntaxKind.UnknownKeyword, 'unknown'],
	[SyntaxKind.UndefinedKeyword, 'undefined'],
	[SyntaxKind.NeverKeyword, 'never'],
	[SyntaxKind.ObjectKeyword, 'object'],
])

function parse(file: string): SourceFile {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'table-types-'))
	const config = path.join(directory, 'tsconfig.json')
	fs.writeFileSync(config, JSON.stringify({ compilerOptions: { noLib: true, noResolve: true, types: [] }, files: [file] }))
	const api = new API({ cwd: directory })
	try {
		const source = api
			.updateSnapshot({ openProjects: [config] })
			.getProjects()[0]
			?.program.getSourceFile(file)
		if (!source) throw new Error(`TypeScript did not load ${file}`)
		return source
	} finally {
		api.close()
		fs.rmSync(directory, { recursive: true, force: true })
	}
}
