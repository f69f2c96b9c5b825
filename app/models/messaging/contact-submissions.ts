import { z } from 'zod'

/** The contact form. */
/** The limits match the check constraints of contact_submissions. */
export const ContactSchema = z.object({
	name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
	email: z
		.string({ error: 'Email is required' })
		.trim()
		.pipe(z.email('Please enter a valid email address').max(254, 'Email must be at most 254 characters')),
	phone: z.string().trim().max(50, 'Phone number must be at most 50 characters').optional(),
	message: z
		.string({ error: 'Message is required' })
		.trim()
		.min(1, 'Message is required')
		.max(10000, 'Message must be at most 10,000 characters'),
})
