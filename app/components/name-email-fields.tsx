import { type FieldMetadata, getInputProps } from '@conform-to/react'
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH } from '#app/utils/user-validation.ts'
import { Field } from './ui/field.tsx'

/** The name and e-mail inputs of the public forms (waitlist, contact, registration, checkout). */
export function NameEmailFields({
	name,
	email,
	nameLabel = 'Full Name',
	emailLabel = 'Email',
	emailFixed,
}: {
	name: FieldMetadata<string>
	email: FieldMetadata<string>
	nameLabel?: string
	emailLabel?: string
	/** Shown, not editable: the form is for this address whatever is sent (with why, as the field's help). */
	emailFixed?: { reason: string }
}) {
	return (
		<>
			<Field
				label={nameLabel}
				errors={name.errors}
				inputProps={{ ...getInputProps(name, { type: 'text' }), autoComplete: 'name', maxLength: MAX_NAME_LENGTH }}
			/>
			<Field
				label={emailLabel}
				errors={email.errors}
				help={emailFixed?.reason}
				inputProps={{
					...getInputProps(email, { type: 'email' }),
					autoComplete: 'email',
					maxLength: MAX_EMAIL_LENGTH,
					readOnly: Boolean(emailFixed),
				}}
			/>
		</>
	)
}
