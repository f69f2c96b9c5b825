import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { getSchoolDetails, saveSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { SchoolDetailsSchema } from '#app/models/site/site-settings.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/school-details'

const SCHOOL_DETAILS_PATH = href('/dashboard/admin/school-details')

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { details: await getSchoolDetails(getDb()) }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const submission = parseWithZod(await readFormData(request), { schema: SchoolDetailsSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { saved } = await saveSchoolDetails(getDb(), { adminId: admin.id, details: submission.value })
	return redirectWithToast(
		SCHOOL_DETAILS_PATH,
		saved
			? { type: 'success', title: 'School details saved', description: 'Receipts sent from now on show these details.' }
			: { type: 'info', title: 'Nothing changed', description: 'The school details are already these.' },
	)
}

export default function SchoolDetailsPage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formAction === SCHOOL_DETAILS_PATH
	const [form, fields] = useForm({
		id: 'school-details',
		lastResult: actionData?.result,
		defaultValue: loaderData.details,
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SchoolDetailsSchema }),
	})
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">School Details</h1>
				<p className="mt-1 text-sm text-slate-600">
					Who the school is on every enrolment receipt: its name, postal address and tax ID. The name is also the one the school's e-mails
					sign with.
				</p>
			</div>
			<Card className="p-4 sm:p-6">
				<Form method="post" action={SCHOOL_DETAILS_PATH} {...getFormProps(form)} className="max-w-xl space-y-4">
					<FormErrors id={form.errorId} errors={form.errors} />
					<Field
						label="School name"
						errors={fields.name.errors}
						inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'organization' }}
					/>
					<TextareaField
						label="Postal address (optional)"
						help="One line per line of the address, as it should print on a receipt."
						errors={fields.address.errors}
						textareaProps={{ ...getTextareaProps(fields.address), rows: 4, autoComplete: 'street-address' }}
					/>
					<Field
						label="Tax ID (optional)"
						help="Printed on receipts when given, e.g. an EIN or VAT number."
						errors={fields.taxId.errors}
						inputProps={{ ...getInputProps(fields.taxId, { type: 'text' }), autoComplete: 'off', spellCheck: false }}
					/>
					<Button type="submit" disabled={saving}>
						{saving ? 'Saving...' : 'Save School Details'}
					</Button>
				</Form>
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('School Details')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
