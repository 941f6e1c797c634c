/** Words the simulated network builds people who are not in the store from. */

export const FIRST_NAMES: readonly string[] = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara',
  'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Daniel', 'Lisa', 'Matthew', 'Nancy',
  'Anthony', 'Sandra', 'Mark', 'Ashley', 'Priya', 'Emily', 'Andrew', 'Michelle', 'Joshua', 'Amanda', 'Kevin', 'Melissa',
  'Brian', 'Stephanie', 'George', 'Rebecca', 'Wei', 'Laura', 'Ahmed', 'Olivia', 'Lucas', 'Sofia', 'Mateo', 'Chloe',
  'Hiroshi', 'Yuki', 'Arjun', 'Ananya', 'Lars', 'Ingrid', 'Pierre', 'Camille', 'Jonas', 'Lena', 'Diego', 'Valentina',
  'Omar', 'Fatima', 'Noah', 'Emma', 'Liam', 'Mia', 'Ethan', 'Zoe', 'Samuel', 'Grace', 'Tomasz', 'Katarzyna',
];

export const LAST_NAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez',
  'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson',
  'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright',
  'Scott', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell',
  'Patel', 'Shah', 'Kumar', 'Chen', 'Wang', 'Kim', 'Tanaka', 'Sato', 'Muller', 'Schmidt', 'Dubois', 'Rossi', 'Silva',
  'Novak', 'Kowalski', 'Johansson', 'Larsen', 'Okafor', 'Haddad', 'Cohen', 'Murphy', "O'Brien", 'Fischer', 'Weber',
];

export const ROLES: readonly string[] = [
  'Software Engineer', 'Senior Software Engineer', 'Product Manager', 'Head of Growth', 'Marketing Manager', 'VP Sales',
  'Account Executive', 'Founder', 'Co-Founder & CEO', 'CTO', 'Data Scientist', 'Recruiter', 'Talent Acquisition Lead',
  'Customer Success Manager', 'Sales Development Representative', 'Designer', 'UX Researcher', 'Operations Manager',
  'Chief Financial Officer', 'Business Development Manager', 'Consultant', 'Engineering Manager', 'Student',
  'Partner', 'Investor', 'Content Strategist', 'Brand Manager', 'DevOps Engineer', 'HR Business Partner', 'Analyst',
];

export const EMPLOYERS: readonly string[] = [
  'Northwind', 'Bluepeak Labs', 'Acme Analytics', 'Brightline', 'Cobalt Systems', 'Evergreen Health', 'Fjord Capital',
  'Granite Works', 'Helix Bio', 'Ironclad Security', 'Juniper Retail', 'Keystone Logistics', 'Lumen Media', 'Meridian AI',
  'Nimbus Cloud', 'Orbit Payments', 'Pinecrest Partners', 'Quantum Foods', 'Redwood Energy', 'Summit Education',
  'Tidal Robotics', 'Umbra Games', 'Vertex Consulting', 'Willow Insurance', 'Xeno Materials', 'Yellowstone Travel',
  'Zephyr Mobility', 'self-employed', 'Stealth Startup', 'Freelance',
];
