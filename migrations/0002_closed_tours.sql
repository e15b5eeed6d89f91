-- Closed tours. Their count is the same from every square (a closed tour passes through all of
-- them), so closed answers are stored once per board, without a start: the directed count,
-- twice the number of cycles.

INSERT INTO kinds (name, description) VALUES
    ('closed', 'closed tours (Hamiltonian cycles of the knight graph), each direction counted');
