import { Button } from '@react-email/button'
import { Heading } from '@react-email/heading'
import { Link } from '@react-email/link'
import { Text } from '@react-email/text'
import type { ReactNode } from 'react'
import { emailColors } from './theme.ts'

export function EmailHeading({ children }: { children: ReactNode }) {
	return (
		<Heading as="h1" style={{ color: emailColors.ink, fontSize: '22px', lineHeight: '30px', margin: '16px 0 8px' }}>
			{children}
		</Heading>
	)
}

export function Paragraph({ children }: { children: ReactNode }) {
	return <Text style={{ color: emailColors.ink, fontSize: '16px', lineHeight: '24px', margin: '12px 0' }}>{children}</Text>
}

/** The salutation every personal mail opens with; 'there' for a person whose name is not known. */
export function Greeting({ name }: { name: string | null }) {
	return <Paragraph>{`Hi ${name || 'there'},`}</Paragraph>
}

/** The mail's one action, with the address spelled out below for clients that hide buttons. */
export function ActionButton({ href, children }: { href: string; children: ReactNode }) {
	return (
		<>
			<Button
				href={href}
				style={{
					backgroundColor: emailColors.brand700,
					borderRadius: '6px',
					color: emailColors.white,
					display: 'inline-block',
					fontSize: '16px',
					fontWeight: 600,
					margin: '8px 0',
					padding: '12px 20px',
					textDecoration: 'none',
				}}
			>
				{children}
			</Button>
			<Text style={{ color: emailColors.muted, fontSize: '13px', lineHeight: '20px', margin: '8px 0 12px' }} data-skip-in-text>
				{'Or open this link: '}
				<Link href={href} style={{ color: emailColors.brand700, wordBreak: 'break-all' }}>
					{href}
				</Link>
			</Text>
		</>
	)
}

/** A two-column label/value table (the receipt's and the refund's details), laid out as a data table in the plain-text part. */
export function DetailsTable({ rows }: { rows: ReadonlyArray<readonly [label: string, value: string]> }) {
	return (
		<table
			role="presentation"
			width="100%"
			cellPadding={0}
			cellSpacing={0}
			data-text-format="dataTable"
			style={{ backgroundColor: emailColors.brand50, borderRadius: '6px', margin: '16px 0', padding: '8px 16px' }}
		>
			<tbody>
				{rows.map(([label, value]) => (
					// A label may repeat or be empty (an address's further lines): the pair is the row.
					<tr key={`${label}|${value}`}>
						<td style={{ ...detailsCell, color: emailColors.muted, width: '40%' }}>{label}</td>
						<td style={{ ...detailsCell, color: emailColors.ink, fontWeight: 600 }}>{value}</td>
					</tr>
				))}
			</tbody>
		</table>
	)
}

const detailsCell = { fontSize: '14px', lineHeight: '22px', padding: '4px 0', verticalAlign: 'top' } as const
