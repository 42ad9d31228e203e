"""What a run writes and how it reads back: the output layout, question records, portfolio
reports and rejected cases."""
