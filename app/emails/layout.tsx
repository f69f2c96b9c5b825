import { Body } from '@react-email/body'
import { Container } from '@react-email/container'
import { Head } from '@react-email/head'
import { Hr } from '@react-email/hr'
import { Html } from '@react-email/html'
import { Link } from '@react-email/link'
import { Preview } from '@react-email/preview'
import { Section } from '@react-email/section'
import { Text } from '@react-email/text'
import type { ReactNode } from 'react'
import type { EmailSite } from './site.ts'
import { emailColors, emailFont } from './theme.ts'

export type EmailLayoutProps = {
	site: EmailSite
	/** The mail's subject, as the document's title (a browser or web mail showing the HTML names it). */
	title: string
	/** The line an inbox shows beside the subject. */
	preview: string
	/** Why this person gets this mail, said in the footer. */
	reason: string
	/** Mails a person may stop (announcements) link to their one-click unsubscribe page. */
	unsubscribe?: { url: string; label: string }
	children: ReactNode
}

/** The frame of every mail: the school's name on its colour, the content on a white card, a footer. */
export function EmailLayout({ site, title, preview, reason, unsubscribe, children }: EmailLayoutProps) {
	return (
		<Html lang="en" dir="ltr">
			<Head>
				<meta name="color-scheme" content="light" />
				<title>{title}</title>
			</Head>
			<Preview>{preview}</Preview>
			<Body style={{ backgroundColor: emailColors.page, color: emailColors.ink, fontFamily: emailFont, margin: 0, padding: '24px 0' }}>
				<Container style={{ maxWidth: '560px', width: '100%' }}>
					<Section style={{ backgroundColor: emailColors.brand900, borderRadius: '8px 8px 0 0', padding: '20px 32px' }}>
						<Link href={site.url} style={{ color: emailColors.white, fontSize: '20px', fontWeight: 700, textDecoration: 'none' }}>
							{site.name}
						</Link>
					</Section>
					<Section
						style={{
							backgroundColor: emailColors.white,
							border: `1px solid ${emailColors.border}`,
							borderTop: 'none',
							borderRadius: '0 0 8px 8px',
							padding: '8px 32px 24px',
						}}
					>
						{children}
					</Section>
					<Section style={{ padding: '16px 32px' }}>
						<Text style={footerText}>{reason}</Text>
						{unsubscribe ? (
							<Text style={footerText}>
								<Link href={unsubscribe.url} style={footerLink}>
									{unsubscribe.label}
								</Link>
							</Text>
						) : null}
						<Hr style={{ borderColor: emailColors.border, margin: '12px 0' }} />
						<Text style={footerText}>
							{`${site.name} · Questions? Write to `}
							<Link href={`mailto:${site.contactEmail}`} style={footerLink}>
								{site.contactEmail}
							</Link>
						</Text>
					</Section>
				</Container>
			</Body>
		</Html>
	)
}

const footerText = { color: emailColors.muted, fontSize: '12px', lineHeight: '18px', margin: '4px 0' }
const footerLink = { color: emailColors.brand700, textDecoration: 'underline' }
