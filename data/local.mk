### Example programs
