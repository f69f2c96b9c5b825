import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation, useSearchParams } from 'react-router'
import { HoneypotField } from '#app/components/marketing/honeypot.tsx'
import { Icon } from '#app/components/marketing/icons.tsx'
import { InfoCard } from '#app/components/marketing/info-card.tsx'
import { PageHero } from '#app/components/marketing/page-hero.tsx'
import { NameEmailFields } from '#app/components/name-email-fields.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonAnchor, ButtonLink } from '#app/components/ui/button.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { createContactSubmission } from '#app/models/messaging/contact-submissions.server.ts'
import { ContactSchema } from '#app/models/messaging/contact-submissions.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { HONEYPOT_REFUSAL, isHoneypotFilled } from '#app/utils/honeypot.ts'
import { pageMeta } from '#app/utils/page-meta.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { useContactEmail } from '#app/utils/root-data.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/contact'

const SENT_URL = '/contact?sent=1'
const CONTACT_RATE_LIMITED = 'Too many messages from your network. Please wait an hour and try again.'
const sentToast = {
	type: 'success',
	title: 'Message sent',
	description: "Thank you for reaching out. We'll get back to you soon.",
} as const

export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: ContactSchema })
	if (isHoneypotFilled(formData)) {
		return data({ result: submission.reply({ formErrors: [HONEYPOT_REFUSAL] }), deliveryFailed: false }, { status: 400 })
	}
	if (submission.status !== 'success') {
		return data({ result: submission.reply(), deliveryFailed: false }, { status: 400 })
	}
	try {
		const limit = await consumeRateLimit('contact', clientAddress(request))
		if (!limit.allowed) {
			return data(
				{ result: submission.reply({ formErrors: [CONTACT_RATE_LIMITED] }), deliveryFailed: false },
				{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
			)
		}
		await createContactSubmission(getDb(), submission.value)
	} catch (error) {
		console.error('[contact] could not store a submission', error instanceof Error ? error.message : error)
		return data({ result: submission.reply(), deliveryFailed: true }, { status: 503 })
	}
	return redirectWithToast(SENT_URL, sentToast)
}

const officeHours = [
	{ days: 'Mon-Fri', hours: '9 AM-6 PM' },
	{ days: 'Sat', hours: '10 AM-4 PM' },
	{ days: 'Sun', hours: 'Closed' },
]

export default function Contact({ actionData }: Route.ComponentProps) {
	const email = useContactEmail()
	const [searchParams] = useSearchParams()
	const sent = searchParams.get('sent') === '1'

	return (
		<>
			<PageHero
				eyebrow="Contact"
				title="Get in Touch"
				description="Questions about the program, enrolment or your account? Send us a message and we'll get back to you within one business day."
			/>
			<div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:py-16 lg:grid-cols-[1fr_22rem]">
				<section aria-labelledby="contact-form-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
					{sent ? (
						<SentMessage email={email} />
					) : (
						<ContactForm email={email} lastResult={actionData?.result} deliveryFailed={actionData?.deliveryFailed ?? false} />
					)}
				</section>

				<aside className="space-y-6">
					<InfoCard icon="mail" title="Email Us">
						<p className="mt-3 text-sm text-slate-600">Prefer your own mail app? Write to us directly.</p>
						<a href={`mailto:${email}`} className="mt-2 inline-block font-medium break-all text-brand-700 underline underline-offset-2">
							{email}
						</a>
					</InfoCard>
					<InfoCard icon="clock" title="Office Hours">
						<dl className="mt-4 divide-y divide-slate-100 text-sm">
							{officeHours.map((row) => (
								<div key={row.days} className="flex justify-between py-2">
									<dt className="text-slate-600">{row.days}</dt>
									<dd className="font-medium text-ink">{row.hours}</dd>
								</div>
							))}
						</dl>
					</InfoCard>
					<div className="rounded-2xl bg-brand-800 p-6 text-white shadow-sm">
						<h2 className="font-semibold">Looking for a quick answer?</h2>
						<p className="mt-2 text-sm text-brand-100">Many common questions are already answered in our FAQ.</p>
						<ButtonLink to="/faq" variant="secondary" size="sm" className="mt-4">
							Read the FAQ
						</ButtonLink>
					</div>
				</aside>
			</div>
		</>
	)
}

function ContactForm({
	email,
	lastResult,
	deliveryFailed,
}: {
	email: string
	lastResult: SubmissionResult<string[]> | undefined
	deliveryFailed: boolean
}) {
	const navigation = useNavigation()
	const isSending = navigation.state === 'submitting' && navigation.formAction === '/contact'
	const [form, fields] = useForm({
		id: 'contact',
		lastResult,
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
	})

	return (
		<>
			<h2 id="contact-form-title" className="text-xl font-semibold text-ink">
				Send us a message
			</h2>
			<p className="mt-1 text-sm text-slate-600">Fields marked with an asterisk (*) are required.</p>
			{deliveryFailed ? (
				<Alert tone="error" className="mt-6">
					Something went wrong. Please try sending your message directly to{' '}
					<a href={`mailto:${email}`} className="font-semibold underline">
						{email}
					</a>
				</Alert>
			) : null}
			{form.errors?.length ? (
				<Alert tone="error" className="mt-6">
					{form.errors.join(' ')}
				</Alert>
			) : null}
			<Form method="post" action="/contact" {...getFormProps(form)} className="relative mt-6 space-y-5">
				<HoneypotField />
				<div className="grid gap-5 sm:grid-cols-2">
					<NameEmailFields name={fields.name} email={fields.email} nameLabel="Name *" emailLabel="Email *" />
				</div>
				<Field
					label="Phone (optional)"
					errors={fields.phone.errors}
					inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), maxLength: 50, autoComplete: 'tel' }}
				/>
				<TextareaField
					label="Message *"
					errors={fields.message.errors}
					textareaProps={{ ...getTextareaProps(fields.message), maxLength: 10000, rows: 6 }}
				/>
				<Button type="submit" size="lg" disabled={isSending} className="w-full sm:w-auto">
					{isSending ? 'Sending...' : 'Send Message'}
				</Button>
			</Form>
		</>
	)
}

function SentMessage({ email }: { email: string }) {
	return (
		<div className="py-6 text-center">
			<span className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700">
				<Icon name="check" className="size-7" strokeWidth={2.5} />
			</span>
			<h2 id="contact-form-title" className="mt-4 text-2xl font-semibold text-ink">
				Thank you! Your message has been sent.
			</h2>
			<p className="mx-auto mt-2 max-w-md text-slate-600">
				We'll get back to you within one business day. If you would rather use your own e-mail, you can also write to us at{' '}
				<a href={`mailto:${email}`} className="font-medium text-brand-700 underline underline-offset-2">
					{email}
				</a>
				.
			</p>
			<div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
				<ButtonAnchor href={`mailto:${email}`} variant="outline">
					<Icon name="mail" className="size-4" />
					Open your email app
				</ButtonAnchor>
				<ButtonLink to="/contact">Send another message</ButtonLink>
			</div>
		</div>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Contact Us',
		'Questions about our real-estate mentorship? Send us a message or e-mail us. Office hours Mon-Fri 9 AM-6 PM, Sat 10 AM-4 PM.',
	)
