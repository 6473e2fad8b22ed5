{ N queens, accepted: backtracking with three arrays of free lines, in Free Pascal
  (fpc -O2). A queen at (row, col) blocks its column, the diagonal where row + col is
  constant and the one where row - col is constant. Reads N on stdin, writes stdout. }
program Queens;

const
  MaxN = 12;

var
  n, i: integer;
  count: longint;
  freeColumn: array[1..MaxN] of boolean;
  freeSum: array[2..2 * MaxN] of boolean;
  freeDifference: array[-MaxN..MaxN] of boolean;
  current, first: array[1..MaxN] of integer;

procedure Place(row: integer);
var
  col, k: integer;
begin
  for col := 1 to n do
    if freeColumn[col] and freeSum[row + col] and freeDifference[row - col] then
    begin
      current[row] := col;
      if row = n then
      begin
        Inc(count);
        if count = 1 then
          for k := 1 to n do first[k] := current[k];
      end
      else
      begin
        freeColumn[col] := false; freeSum[row + col] := false; freeDifference[row - col] := false;
        Place(row + 1);
        freeColumn[col] := true; freeSum[row + col] := true; freeDifference[row - col] := true;
      end;
    end;
end;

begin
  ReadLn(n);
  for i := 1 to MaxN do freeColumn[i] := true;
  for i := 2 to 2 * MaxN do freeSum[i] := true;
  for i := -MaxN to MaxN do freeDifference[i] := true;
  count := 0;
  Place(1);
  WriteLn(count);
  if count > 0 then
  begin
    for i := 1 to n do
    begin
      if i > 1 then Write(' ');
      Write(first[i]);
    end;
    WriteLn;
  end;
end.
