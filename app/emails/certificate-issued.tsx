import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function certificateIssuedSubject(courseTitle: string) {
	return `Your certificate: ${courseTitle}`
}

export type CertificateIssuedProps = {
	site: EmailSite
	name: string
	courseTitle: string
	/** The public page anyone can check it on. */
	certificateUrl: string
	/** The student's dashboard, with the PDF and the credential to download. */
	dashboardUrl: string
}

/** Sent when a certificate is issued (or re-issued): where to see, share and download it. */
export function CertificateIssuedEmail({ site, name, courseTitle, certificateUrl, dashboardUrl }: CertificateIssuedProps) {
	return (
		<EmailLayout
			site={site}
			title={certificateIssuedSubject(courseTitle)}
			preview={`Your certificate for ${courseTitle} is ready.`}
			reason={`You get this email because you completed ${courseTitle} at ${site.name}.`}
		>
			<EmailHeading>Your certificate is ready</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`Congratulations on completing ${courseTitle}. Your certificate has its own page, which anyone you share the address with can use to check it:`}</Paragraph>
			<ActionButton href={certificateUrl}>See your certificate</ActionButton>
			<Paragraph>{`Your dashboard has it as a PDF, as an Open Badges credential, and a button that adds it to your LinkedIn profile: ${dashboardUrl}`}</Paragraph>
		</EmailLayout>
	)
}
